//! A Japanese server reads Japanese: answers, boards and notices, while an English member of it
//! reads English.

use std::time::Instant;

use serde_json::json;

use crate::common::opt_str;
use crate::discord::{self, member, Bot, Discord, ANN, BOB};
use crate::server;

/// Whether a text is Japanese: kana or kanji present, and no bare message id.
fn japanese(text: &str) -> bool {
    let kana_or_kanji = text
        .chars()
        .any(|c| matches!(c, '\u{3040}'..='\u{30ff}' | '\u{4e00}'..='\u{9fff}'));
    // A message id: lowercase words joined by hyphens (`caption-head`), shown when a text is
    // missing.
    let bare_id = text.split_whitespace().any(|w| {
        let parts: Vec<&str> = w.split('-').collect();
        parts.len() > 1
            && parts
                .iter()
                .all(|p| p.len() > 1 && p.chars().all(|c| c.is_ascii_lowercase()))
    });
    kana_or_kanji && !bare_id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_japanese_server_reads_japanese() {
    let started = Instant::now();
    let d = Discord::start("japanese").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    d.speak("ja");
    // Every command, option and choice is registered with its Japanese name and description.
    let (_, registration) = d
        .fake
        .wait_for(0, "the commands' registration", |r| {
            r.method == "PUT" && r.path.ends_with("/commands")
        })
        .await;
    let registered = registration.json.expect("the commands as JSON");
    for command in registered.as_array().expect("a list of commands") {
        for field in ["name_localizations", "description_localizations"] {
            let ja = command[field]["ja"].as_str().unwrap_or("");
            assert!(!ja.is_empty(), "{field} of {command}");
        }
        assert!(japanese(
            command["description_localizations"]["ja"]
                .as_str()
                .unwrap_or("")
        ));
        for option in command["options"].as_array().into_iter().flatten() {
            for field in ["name_localizations", "description_localizations"] {
                assert!(option[field]["ja"].is_string(), "{field} of {option}");
            }
            for choice in option["choices"].as_array().into_iter().flatten() {
                assert!(choice["name_localizations"]["ja"].is_string(), "{choice}");
            }
        }
    }
    // A choice Discord never offers is refused in Japanese, naming the command and the option
    // by their Japanese names.
    let forged = json!({"name": "days_per_move", "type": 4, "value": 99});
    d.refused_challenge(
        &ANN,
        &BOB,
        "inphexion",
        &[forged],
        "`/挑戦` の `一手の日数` に選択肢にない値が届いたため、何も行いませんでした。",
    )
    .await;
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size5]).await;
    let challenge_text = ch.message["content"].as_str().unwrap_or("").to_string();
    assert!(japanese(&challenge_text), "{challenge_text}");
    let game = d.accept(&BOB, &ch).await;
    // The first board: caption, alt text and buttons in Japanese.
    let board = d.last_board(game.id);
    let caption = board["content"].as_str().unwrap_or("");
    assert!(japanese(caption), "{caption}");
    let alt = board["attachments"][0]["description"]
        .as_str()
        .unwrap_or("");
    assert!(japanese(alt), "{alt}");
    let labels: Vec<&str> = discord::components_of(&board["components"])
        .filter_map(|c| c["label"].as_str())
        .collect();
    assert_eq!(labels, ["指す", "観戦", "ライブで見る"], "{board}");
    // The player waiting is told in Japanese; the picker speaks Japanese, menus included.
    let waiting = if game.to_move == ANN.id { &BOB } else { &ANN };
    let mover = member(game.to_move);
    let not_now = d.press_move(waiting, &board).await;
    eprintln!("NOT NOW {not_now:?}");
    assert!(
        not_now.ephemeral && japanese(&not_now.content),
        "{not_now:?}"
    );
    let picker = d.press_move(mover, &board).await;
    assert!(japanese(&picker.content), "{picker:?}");
    let options: Vec<String> = discord::components_of(&picker.components)
        .flat_map(|c| c["options"].as_array().cloned().unwrap_or_default())
        .filter_map(|o| o["label"].as_str().map(str::to_string))
        .collect();
    assert!(!options.is_empty(), "{picker:?}");
    assert!(options.iter().all(|o| japanese(o)), "{options:?}");
    // Autocomplete labels in words, in Japanese; the values stay notation.
    let empty = json!({"name": "move", "type": 3, "value": "", "focused": true});
    let choices = d.autocomplete_choices(mover, "move", vec![empty]).await;
    assert!(!choices.is_empty());
    assert!(
        choices.iter().all(|(label, _)| japanese(label)),
        "{choices:?}"
    );
    assert!(
        choices.iter().all(|(_, value)| value.is_ascii()),
        "{choices:?}"
    );
    // A wrong move is refused in Japanese, and nothing changes.
    d.refused(mover, "move", vec![opt_str("move", "zz9")], "指せません")
        .await;
    // A move played: the answer and the next board in Japanese.
    let from = d.fake.request_count();
    let played = d
        .command(mover, "move", vec![opt_str("move", &choices[0].1)])
        .await;
    assert!(played.ephemeral, "{played:?}");
    let next = d.posted(from, Some(server::CHANNEL_ID), "手目 · ").await;
    let text = next.json.unwrap_or_default()["content"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(japanese(&text), "{text}");
    // An English member of the same server reads their private answers in English (the one
    // who just moved is now waiting).
    d.speak("en-US");
    let english = d.press_move(mover, &d.last_board(game.id)).await;
    assert!(
        english.ephemeral && !japanese(&english.content) && english.content.contains("turn"),
        "{english:?}"
    );
    d.end(&mut bot, "japanese end-to-end", started).await;
}
