//! Games against the bot itself (`/play`, or the bot named as opponent).

use serde_json::json;

use crate::common::move_without_the_bot;
use crate::discord::{self, Bot, Discord, Member, ANN, BOB};
use crate::server;

/// The bot's own account, as a member would pick it as `opponent`.
const HEXCORD: Member = Member {
    id: server::BOT_ID,
    name: "hexcord",
    bot: true,
    permissions: discord::MEMBER_PERMS,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_against_the_bot() {
    let d = Discord::start("versus-bot").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;

    // Challenging the bot's account points to `/play`.
    d.refused_challenge(&ANN, &HEXCORD, "inphexion", &[], "/play")
        .await;

    // Ann moves first on a 5×5 board against `easy`; the bot answers each move on its own.
    let size = json!({"name": "size", "type": 4, "value": 5});
    let mut state = d.play_bot(&ANN, "inphexion", 0, &[size]).await;
    assert_eq!(state.to_move, ANN.id, "the member moves first by default");
    let id = state.id;
    for _ in 0..40 {
        let from = d.fake.request_count();
        state = d.play_suggested(&state).await;
        if state.caption.contains("Game over") {
            break;
        }
        if state.to_move == ANN.id {
            // The bot answered before the board of Ann's move was posted: one post shows both
            // moves (the delivery folds a board into the one queued before it).
            assert_eq!(state.caption.matches("\nMove ").count(), 2, "{state:?}");
            continue;
        }
        assert_eq!(state.to_move, server::BOT_ID, "{state:?}");
        // While the bot thinks (or right after), it is not Ann's turn.
        state = d.bot_move(from, &state).await;
        if state.caption.contains("Game over") {
            break;
        }
        assert_eq!(state.to_move, ANN.id, "{state:?}");
    }
    assert!(state.caption.contains("Game over"), "{state:?}");
    assert_ne!(d.game_status(id).await, "active");

    // An EXXIT game where the bot moves first, interrupted by a restart before its first
    // move can be seen: after the restart the bot resumes and plays it.
    let from = d.fake.request_count();
    let first = json!({"name": "first", "type": 5, "value": false});
    let tiles = json!({"name": "tiles", "type": 4, "value": 2});
    let started = d.play_bot(&BOB, "exxit", 1, &[first, tiles]).await;
    assert_eq!(started.to_move, server::BOT_ID, "{started:?}");
    let after_first = d.bot_move(from, &started).await;
    assert_eq!(after_first.to_move, BOB.id, "{after_first:?}");
    // The bot stops, and Bob's move is stored while it is down (as when the bot stops right
    // after storing a move): after the restart the bot finds its turn and plays.
    bot.kill().await;
    move_without_the_bot(&d, after_first.id, &BOB).await;
    let from = d.fake.request_count();
    let bot = Bot::restart(&d, bot).await;
    d.fake.wait_ready(2).await;
    // Bob's board, queued while the bot was down, is posted after the restart.
    d.board_post(from, after_first.id, 2).await;
    let resumed = d.bot_move(from, &after_first).await;
    assert_eq!(resumed.to_move, BOB.id, "{resumed:?}");
    assert_eq!(d.move_count(after_first.id).await, 3);

    // Games against the bot are unrated and have no clock.
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let rows: Vec<(i64, Option<i64>)> =
        sqlx::query_as("SELECT rated, deadline_at FROM games ORDER BY id")
            .fetch_all(&pool)
            .await
            .expect("games");
    pool.close().await;
    assert!(rows.iter().all(|r| *r == (0, None)), "{rows:?}");

    assert!(d.fake.violations().is_empty(), "{:#?}", d.fake.violations());
    assert!(d.log_problems().is_empty(), "{:#?}", d.log_problems());
    drop(bot);
}

/// A coached game (`/play` with `coach`): the Move button's picker carries Hint, whose private
/// answer names a good move (legal, and played here with `/move`), one line of why and the
/// opponent's threat, in English and in Japanese; another member's press, a Hint on a position
/// that moved on and a Hint in a game without a coach are refused and change nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_coached_game_gives_hints_in_the_picker() {
    let d = Discord::start("coached").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size = json!({"name": "size", "type": 4, "value": 5});
    let coach = json!({"name": "coach", "type": 5, "value": true});
    let state = d
        .play_bot(&ANN, "inphexion", 0, &[size.clone(), coach])
        .await;
    let id = state.id;
    let board = d.last_board(id);
    assert!(
        board["content"]
            .as_str()
            .unwrap_or("")
            .contains("with the coach"),
        "{board}"
    );
    let picker = d
        .press_id(&ANN, &d.shown_post(&board), &format!("hx:move:{id}"))
        .await;
    let hint_id = format!("hx:hint:{id}:0");
    assert!(
        picker.ephemeral && picker.components.to_string().contains(&hint_id),
        "{picker:?}"
    );
    let shown = discord::Pressable::from_answer(&picker, &d.fake);
    // Bob cannot ask for Ann's hints.
    d.refused_press(&BOB, &shown, "hint", "between").await;
    let hint = d.press(&ANN, &shown, "hint").await;
    assert!(
        hint.ephemeral
            && hint.content.contains("Suggested move")
            && hint.content.contains("No threat"),
        "{hint:?}"
    );
    let mv = hint
        .content
        .split('`')
        .nth(1)
        .expect("the move's notation")
        .to_string();
    let from = d.fake.request_count();
    let played = d
        .command(
            &ANN,
            "move",
            vec![json!({"name": "move", "type": 3, "value": mv})],
        )
        .await;
    // Played (the bot may answer at once).
    assert!(
        played.ephemeral && played.content.contains(&format!("(`{mv}`)")),
        "{played:?}"
    );
    assert!(d.move_count(id).await >= 1, "{played:?}");
    let after = d.bot_move(from, &state).await;
    assert_eq!(after.to_move, ANN.id, "{after:?}");
    // The first picker's Hint is for a position that has moved on.
    d.refused_press(&ANN, &shown, "hint", "has changed").await;
    // In Japanese, from a fresh picker.
    d.speak("ja");
    let board = d.last_board(id);
    let picker = d
        .press_id(&ANN, &d.shown_post(&board), &format!("hx:move:{id}"))
        .await;
    let shown = discord::Pressable::from_answer(&picker, &d.fake);
    let hint = d.press(&ANN, &shown, "hint").await;
    assert!(
        hint.ephemeral && hint.content.contains("おすすめの手"),
        "{hint:?}"
    );
    d.speak("en-US");
    // A game without a coach has no Hint, and a forged one is refused.
    let plain = d.play_bot(&BOB, "inphexion", 0, &[size]).await;
    let board = d.last_board(plain.id);
    let picker = d
        .press_id(
            &BOB,
            &d.shown_post(&board),
            &format!("hx:move:{}", plain.id),
        )
        .await;
    assert!(
        !picker.components.to_string().contains("hx:hint"),
        "{picker:?}"
    );
    let mut forged = discord::Pressable::from_answer(&picker, &d.fake);
    let custom = format!("hx:hint:{}:0", plain.id);
    forged.message = d.shown(&picker);
    forged.message["components"] = json!([{"type": 1, "components": [{"type": 2, "style": 2, "label": "Hint", "custom_id": custom, "disabled": false}]}]);
    forged.message["flags"] = json!(64);
    forged.ids.insert("hint".into(), custom);
    d.refused_press(&BOB, &forged, "hint", "no coach").await;
    assert_eq!(d.move_count(plain.id).await, 0);

    assert!(d.fake.violations().is_empty(), "{:#?}", d.fake.violations());
    assert!(d.log_problems().is_empty(), "{:#?}", d.log_problems());
    bot.kill().await;
}
