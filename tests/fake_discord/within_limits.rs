//! What the bot sends stays within Discord's limits (the fake checks every request against
//! them): suggestions name players in words and fit in 100 characters however long their names,
//! and the Activity's Entry Point command is registered globally, never in the development
//! server, which Discord refuses.

use std::time::Instant;

use serde_json::{json, Value};

use crate::discord::{Bot, Discord, Member, LONG, LONG_JA};
use crate::server::{APP_ID, CLIENT_SECRET, GUILD_ID};

/// The suggestion for game `game` in `who`'s `/analysis` suggestions.
async fn analysis_label(d: &Discord, who: &Member, game: i64) -> String {
    let empty = json!({"name": "game", "type": 3, "value": "", "focused": true});
    let choices = d.autocomplete_choices(who, "analysis", vec![empty]).await;
    choices
        .into_iter()
        .find(|(_, value)| *value == game.to_string())
        .map(|(label, _)| label)
        .unwrap_or_else(|| panic!("no suggestion of game #{game} for {}", who.name))
}

/// A suggestion as Discord takes it: at most 100 characters, and no mention markup (Discord
/// would show its digits).
fn assert_fits(label: &str) {
    assert!(
        label.chars().count() <= 100,
        "{} characters: {label}",
        label.chars().count()
    );
    assert!(!label.contains("<@"), "{label}");
}

/// Two members with the longest names Discord allows play a game of EXXIT to its end: the
/// waiting player's move suggestion and each player's `/analysis` suggestion of the finished
/// game (with its result, as long as results get) fit, in English and in Japanese, naming the
/// member as "you" and the other player by name, cut with an ellipsis where the whole would not
/// fit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn suggestions_name_players_in_words_within_100_characters() {
    let started = Instant::now();
    let d = Discord::start("labels").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let tiles19 = json!({"name": "tiles", "type": 4, "value": 2});
    let ch = d.challenge(&LONG, &LONG_JA, "exxit", &[tiles19]).await;
    let game = d.accept(&LONG_JA, &ch).await;
    let waiting = if game.to_move == LONG.id {
        &LONG_JA
    } else {
        &LONG
    };
    let empty = json!({"name": "move", "type": 3, "value": "", "focused": true});
    let told = d.autocomplete_choices(waiting, "move", vec![empty]).await;
    assert_eq!(told.len(), 1, "{told:?}");
    assert_fits(&told[0].0);
    assert!(told[0].0.ends_with('…'), "{told:?}");

    let finished = d.play_out(game, 400).await;
    assert_eq!(d.game_status(finished.id).await, "finished");
    for (lang, you) in [("en-US", "you"), ("ja", "あなた")] {
        d.speak(lang);
        for (who, other) in [(&LONG, &LONG_JA), (&LONG_JA, &LONG)] {
            let label = analysis_label(&d, who, finished.id).await;
            assert_fits(&label);
            assert!(
                label.starts_with(&format!("#{} EXXIT", finished.id)),
                "{label}"
            );
            assert!(label.contains(you), "{label}");
            // The other player by name, whole or cut.
            let shown = label.trim_end_matches('…');
            let named = other.name.chars().take(8).collect::<String>();
            assert!(shown.contains(&named), "{label}");
        }
    }
    d.speak("en-US");
    d.end(&mut bot, "suggestions within limits", started).await;
}

/// The commands registered at `path`, by the last such registration.
fn registered(d: &Discord, path: &str) -> Option<Value> {
    d.fake
        .state
        .requests
        .lock()
        .unwrap()
        .iter()
        .rev()
        .find(|r| r.method == "PUT" && r.path == path)
        .and_then(|r| r.json.clone())
}

/// With Activities on and a development server set, the slash commands are registered in that
/// server and the Entry Point command (`/launch`, type 4) globally: the fake refuses it in a
/// server's registration, as Discord does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_entry_point_is_registered_globally_beside_a_development_server() {
    let started = Instant::now();
    let d = Discord::start("entry-point").await;
    let mut bot = Bot::start_with(&d, &[("DISCORD_CLIENT_SECRET", CLIENT_SECRET)]).await;
    d.fake.wait_ready(1).await;
    let global_path = format!("/applications/{APP_ID}/commands");
    d.fake
        .wait_for(0, "the global registration", |r| {
            r.method == "PUT" && r.path == global_path
        })
        .await;
    let in_server = registered(
        &d,
        &format!("/applications/{APP_ID}/guilds/{GUILD_ID}/commands"),
    )
    .expect("the server's registration");
    let types = |list: &Value| -> Vec<u64> {
        list.as_array()
            .into_iter()
            .flatten()
            .map(|c| c["type"].as_u64().unwrap_or(1))
            .collect()
    };
    assert!(types(&in_server).len() >= 8, "{in_server}");
    assert!(!types(&in_server).contains(&4), "{in_server}");
    let global = registered(&d, &global_path).expect("the global registration");
    assert_eq!(types(&global), vec![4], "{global}");
    assert_eq!(
        (&global[0]["name"], &global[0]["handler"]),
        (&json!("launch"), &json!(2))
    );
    d.end(&mut bot, "entry point", started).await;
}

/// With Activities on but no address members can open (the web board on a loopback address,
/// no `PUBLIC_URL`), no link is offered and neither is the Activity: the slash commands are
/// registered in the development server, and no Entry Point command anywhere.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_entry_point_is_registered_while_the_page_is_offered_nowhere() {
    let started = Instant::now();
    let d = Discord::start("entry-point-withheld").await;
    let mut bot = Bot::start_with(
        &d,
        &[("DISCORD_CLIENT_SECRET", CLIENT_SECRET), ("PUBLIC_URL", "")],
    )
    .await;
    d.fake.wait_ready(1).await;
    let guild_path = format!("/applications/{APP_ID}/guilds/{GUILD_ID}/commands");
    d.fake
        .wait_for(0, "the server's registration", |r| {
            r.method == "PUT" && r.path == guild_path
        })
        .await;
    // A command answered: the registrations, made before the bot answers any, are all made.
    d.command(&crate::discord::ANN, "help", vec![]).await;
    let in_server = registered(&d, &guild_path).expect("the server's registration");
    let all = in_server.as_array().expect("a list");
    assert!(all.len() >= 8, "{in_server}");
    assert!(all.iter().all(|c| c["type"] != json!(4)), "{in_server}");
    let global = registered(&d, &format!("/applications/{APP_ID}/commands"));
    assert!(
        global.as_ref().is_none_or(|g| g
            .as_array()
            .is_some_and(|g| g.iter().all(|c| c["type"] != json!(4)))),
        "{global:?}"
    );
    d.end(&mut bot, "entry point withheld", started).await;
}
