//! Whole games by slash commands: challenges refused, withdrawn, declined and accepted (one
//! across a restart), mistakes answered privately, two moves at once, a moderator's abort, and
//! inpHeXion and EXXIT played to the end or resigned.

use std::time::Instant;

use serde_json::json;

use crate::common::opt_str;
use crate::discord::{self, Bot, Discord, ANN, BOB, CAT, MOD, OTHER_BOT};
use crate::server;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inphexion_game_with_restart_race_and_bad_inputs() {
    let started = Instant::now();
    let d = Discord::start("inphexion").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;

    // Help, and commands without a game.
    let help = d.command(&ANN, "help", vec![]).await;
    assert!(
        help.ephemeral && help.content.contains("/challenge"),
        "{help:?}"
    );
    d.refused(&ANN, "move", vec![opt_str("move", "d4")], "no active game")
        .await;
    d.refused_challenge(&ANN, &ANN, "inphexion", &[], "yourself")
        .await;
    d.refused_challenge(&ANN, &OTHER_BOT, "inphexion", &[], "Bots")
        .await;
    d.refused_challenge(
        &ANN,
        &BOB,
        "exxit",
        &[json!({"name": "size", "type": 4, "value": 5})],
        "size",
    )
    .await;

    // A challenge, refused to a stranger, then accepted.
    let ch = d
        .challenge(
            &ANN,
            &BOB,
            "inphexion",
            &[json!({"name": "size", "type": 4, "value": 5})],
        )
        .await;
    d.refused_challenge(
        &ANN,
        &BOB,
        "inphexion",
        &[json!({"name": "size", "type": 4, "value": 5})],
        "already an open",
    )
    .await;
    d.refused_press(&CAT, &ch, "accept", "for <@").await;
    d.refused_press(&ANN, &ch, "accept", "for <@").await;
    let game = d.accept(&BOB, &ch).await;
    assert_eq!(game.to_move, ANN.id, "the challenger moves first");

    // Mistakes: each answered privately, nothing changes.
    d.refused(&BOB, "move", vec![opt_str("move", "a1")], "not your turn")
        .await;
    d.refused(
        &ANN,
        "move",
        vec![opt_str("move", "zz99")],
        "cannot be played",
    )
    .await;
    d.refused(
        &CAT,
        "move",
        vec![opt_str("move", "a1"), opt_str("game", &game.id.to_string())],
        "not yours",
    )
    .await;
    d.refused(
        &ANN,
        "move",
        vec![opt_str("move", "a1"), opt_str("game", "#999")],
        "no game #999",
    )
    .await;
    d.refused(
        &ANN,
        "board",
        vec![json!({"name": "ply", "type": 4, "value": 50})],
        "pick a `ply`",
    )
    .await;
    // `/abort`, `/server`, `/daily_puzzle` and `/seeks` are shown only to members with Manage Server
    // (0x20); a member who calls `/abort` anyway (Discord lets server owners override this) is
    // refused by the bot.
    let (_, registration) = d
        .fake
        .wait_for(0, "the commands' registration", |r| {
            r.method == "PUT" && r.path.ends_with("/commands")
        })
        .await;
    let registered = registration.json.expect("the commands as JSON");
    for command in registered.as_array().expect("a list of commands") {
        // Slash commands only: the Activity's Entry Point exists only with Activities on.
        assert_ne!(command["type"], 4, "{command}");
        let expected = if ["abort", "server", "daily_puzzle", "seeks"]
            .contains(&command["name"].as_str().unwrap_or(""))
        {
            json!(32)
        } else {
            serde_json::Value::Null
        };
        assert_eq!(
            command
                .get("default_member_permissions")
                .cloned()
                .unwrap_or_default(),
            expected,
            "{command}"
        );
    }
    d.refused(
        &CAT,
        "abort",
        vec![opt_str("game", &game.id.to_string())],
        "moderators",
    )
    .await;
    d.refused_press(
        &CAT,
        &discord::Pressable::resign(game.id),
        "resign",
        "not yours",
    )
    .await;

    // A few moves, then two moves at the same moment: exactly one applies.
    let mut state = game.clone();
    for _ in 0..3 {
        state = d.play_suggested(&state).await;
    }
    d.race(&state).await;
    let mut state = d.current(&state).await;

    // A challenge made before a restart is accepted after it.
    let later = d.challenge(&ANN, &CAT, "exxit", &[]).await;
    bot.kill().await;
    let mut bot = Bot::restart(&d, bot).await;
    d.fake.wait_ready(2).await;
    state = d.play_suggested(&state).await;
    let other = d.accept(&CAT, &later).await;

    // Play to the end.
    let finished = d.play_out(state, 400).await;
    d.refused(
        &ANN,
        "move",
        vec![
            opt_str("move", "a1"),
            opt_str("game", &finished.id.to_string()),
        ],
        "is over",
    )
    .await;
    let past = d
        .command(
            &BOB,
            "board",
            vec![
                opt_str("game", &finished.id.to_string()),
                json!({"name": "ply", "type": 4, "value": 1}),
            ],
        )
        .await;
    assert!(!past.ephemeral && past.files.len() == 1, "{past:?}");
    let games = d.command(&ANN, "games", vec![]).await;
    assert!(
        games.ephemeral && games.content.contains(&format!("#{}", other.id)),
        "{games:?}"
    );

    // A moderator aborts the other game; the channel hears of it.
    let from = d.fake.request_count();
    let aborted = d
        .command(&MOD, "abort", vec![opt_str("game", &other.id.to_string())])
        .await;
    assert!(
        aborted.ephemeral && aborted.content.contains("aborted"),
        "{aborted:?}"
    );
    d.posted(from, Some(server::CHANNEL_ID), "was aborted by a moderator")
        .await;
    assert_eq!(d.game_status(other.id).await, "aborted");

    d.end(&mut bot, "inphexion end-to-end", started).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exxit_games_to_the_end_and_by_resignation() {
    let started = Instant::now();
    let d = Discord::start("exxit").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;

    let rules = d
        .command(
            &CAT,
            "rules",
            vec![json!({"name": "game", "type": 4, "value": 1})],
        )
        .await;
    assert!(
        rules.ephemeral && rules.files.len() == 1 && rules.content.contains("EXXIT"),
        "{rules:?}"
    );

    let tiles19 = json!({"name": "tiles", "type": 4, "value": 2});
    let ch = d
        .challenge(&BOB, &ANN, "exxit", std::slice::from_ref(&tiles19))
        .await;
    d.refused_press(&ANN, &ch, "withdraw", "withdraw").await;
    let game = d.accept(&ANN, &ch).await;
    assert_eq!(game.to_move, BOB.id);
    let finished = d.play_out(game, 400).await;
    assert_eq!(d.game_status(finished.id).await, "finished");

    // Withdrawn and declined challenges.
    let ch = d.challenge(&BOB, &ANN, "exxit", &[]).await;
    d.answer_challenge(&BOB, &ch, "withdraw", "withdrew").await;
    d.refused_press(&ANN, &ch, "accept", "no longer open").await;
    let ch = d.challenge(&BOB, &ANN, "exxit", &[]).await;
    d.answer_challenge(&ANN, &ch, "decline", "declined").await;

    // Resignation with confirmation.
    let ch = d.challenge(&BOB, &ANN, "exxit", &[tiles19]).await;
    let game = d.accept(&ANN, &ch).await;
    let state = d.play_suggested(&game).await;
    d.resign(&ANN, &state).await;
    assert_eq!(d.game_status(state.id).await, "finished");
    assert_eq!(d.winner(state.id).await, Some(BOB.id));

    d.end(&mut bot, "exxit end-to-end", started).await;
}

/// The first board posted for game `game` from request `from` on, decoded.
fn first_board_picture(d: &Discord, from: usize, game: i64) -> image::RgbaImage {
    let tag = format!(" #{game} ");
    let requests = d.fake.state.requests.lock().unwrap();
    let png = requests[from..]
        .iter()
        .find(|r| {
            r.is_new_post()
                && r.files.len() == 1
                && r.json
                    .as_ref()
                    .is_some_and(|j| j["content"].as_str().is_some_and(|c| c.contains(&tag)))
        })
        .map(|r| r.files[0].1.clone())
        .unwrap_or_else(|| panic!("a board of #{game}"));
    image::load_from_memory(&png).expect("a PNG").to_rgba8()
}

/// The mean brightness (0–255) of the picture's four corners, which show its background.
fn corner_brightness(img: &image::RgbaImage) -> u32 {
    let (w, h) = img.dimensions();
    let corners = [(1, 1), (w - 2, 1), (1, h - 2), (w - 2, h - 2)];
    let sum: u32 = corners
        .iter()
        .map(|&(x, y)| {
            let p = img.get_pixel(x, y);
            (u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2])) / 3
        })
        .sum();
    sum / 4
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boards_follow_the_servers_picture_theme() {
    let started = Instant::now();
    let d = Discord::start("theme").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;

    // Dark by default.
    let from = d.fake.request_count();
    let ch = d.challenge(&CAT, &BOB, "inphexion", &[]).await;
    let dark = d.accept(&BOB, &ch).await;
    let before = first_board_picture(&d, from, dark.id);
    assert!(corner_brightness(&before) < 80, "a dark board first");

    // Only moderators choose; the answer says what is chosen.
    let light_option = || vec![json!({"name": "theme", "type": 4, "value": 1})];
    d.refused(&ANN, "server", light_option(), "manage the server")
        .await;
    let unchanged = d.command(&MOD, "server", vec![]).await;
    assert!(unchanged.content.contains("**dark**"), "{unchanged:?}");
    let set = d.command(&MOD, "server", light_option()).await;
    assert!(
        set.ephemeral && set.content.contains("Saved") && set.content.contains("**light**"),
        "{set:?}"
    );

    // A new game's board, and a board asked for of the first game, are light.
    let from = d.fake.request_count();
    let ch = d.challenge(&ANN, &MOD, "exxit", &[]).await;
    let light = d.accept(&MOD, &ch).await;
    let after = first_board_picture(&d, from, light.id);
    assert!(corner_brightness(&after) > 200, "a light board");
    let from = d.fake.request_count();
    d.play_suggested(&dark).await;
    let next = first_board_picture(&d, from, dark.id);
    assert!(
        corner_brightness(&next) > 200,
        "the first game's next board is light"
    );

    d.end(&mut bot, "theme end-to-end", started).await;
}
