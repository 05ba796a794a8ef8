//! Play in a group chat, hexcord installed to one member's account (a user-installed app): a
//! whole correspondence game between a member with the app and one without, who plays through
//! the buttons and the picker of the bot's answers (Discord lets anyone in the chat press them,
//! and offers the commands only to members who installed the app), on a clock the test moves:
//! turn notices and a reminder by direct message to the member the bot may write to, nothing to
//! the one it may not, and the loss on time; then a resignation, its final board shown to the
//! chat. No request Discord would refuse: the bot never
//! posts in the chat, never uses a token past its 15 minutes, never writes to a member Discord
//! would not let it.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{db_value, opt_str, DAY};
use crate::discord::{self, parse_state, Answer, Bot, Discord, InChat, ANN, CAT, EVE};
use crate::server::Recorded;

/// The current game `id` as stored: its position, for the next legal move.
async fn stored(d: &Discord, id: i64) -> hexcord::games::Game {
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let mut conn = pool.acquire().await.expect("a connection");
    let (_, game) = hexcord::db::load_game(&mut conn, id)
        .await
        .expect("the game loads")
        .expect("the game exists");
    drop(conn);
    pool.close().await;
    game
}

/// The follow-up the bot sent on an interaction's token (from request `from` on): the board a
/// press of the picker's Play shows the chat.
async fn follow_up(d: &Discord, from: usize) -> Recorded {
    let (_, r) = d
        .fake
        .wait_for(from, "the board following the picker", |r| {
            r.method == "POST" && r.path.starts_with("/webhooks/") && !r.files.is_empty()
        })
        .await;
    r
}

/// Waits until the bot's direct messages to `who` number `n`; returns the last.
async fn nth_direct(d: &Discord, who: u64, n: usize) -> Value {
    let waited = Instant::now();
    loop {
        let got = d.fake.directs_to(who);
        if got.len() >= n {
            return got[n - 1].clone();
        }
        assert!(
            waited.elapsed() < Duration::from_secs(20),
            "{n} direct messages to {who}: {got:#?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A board answered in the chat: public, with its picture and the Move button.
fn assert_board(ans: &Answer, game: i64) {
    assert!(!ans.ephemeral, "the chat sees the board: {ans:?}");
    assert_eq!(ans.files.len(), 1, "the board's picture: {ans:?}");
    assert!(
        discord::components_of(&ans.components)
            .any(|c| c["custom_id"] == format!("hx:move:{game}").as_str()),
        "the Move button: {ans:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_game_in_a_group_chat_with_a_member_without_the_app() {
    let started = Instant::now();
    let t0: i64 = 1_900_000_000;
    let d = Discord::start_with_clock("chat", t0).await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;

    // Registration: the commands of play reach chats through a member's installation; the
    // server's own stay there (the fake checked the request against Discord's spec).
    {
        let registered = d.fake.state.registered.lock().unwrap();
        for name in ["challenge", "move", "board", "resign", "profile", "help"] {
            let c = &registered[name];
            assert_eq!(c["integration_types"], json!([0, 1]), "/{name}: {c}");
            assert_eq!(c["contexts"], json!([0, 1, 2]), "/{name}: {c}");
        }
        for name in ["server", "tournament", "abort", "leaderboard"] {
            let c = &registered[name];
            assert_eq!(c["integration_types"], json!([0]), "/{name}: {c}");
            assert_eq!(c["contexts"], json!([0]), "/{name}: {c}");
        }
    }

    // Ann installed hexcord; Eve did not and shares no server with the bot; Cat, in the chat
    // too, did not install it.
    d.stranger(&EVE);
    let chat = d.enter_chat(&ANN, &[&ANN, &EVE, &CAT]);
    assert!(d.offered(&ANN, "challenge") && d.offered(&ANN, "move"));
    assert!(!d.offered(&ANN, "leaderboard"), "a server's command");
    for name in ["challenge", "move", "board"] {
        assert!(!d.offered(&EVE, name), "/{name} without the app");
        assert!(!d.offered(&CAT, name), "/{name} without the app");
    }

    // Ann challenges Eve: the challenge is the answer, with its buttons, pinging Eve.
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let one_day = json!({"name": "days_per_move", "type": 4, "value": 0});
    let ch = d
        .challenge(&ANN, &EVE, "inphexion", &[size5, one_day])
        .await;
    // Eve accepts with the button: the challenge becomes the first board, pinging Ann.
    let accepted = d.press(&EVE, &ch, "accept").await;
    assert_eq!(accepted.callback_type, 7, "{accepted:?}");
    assert!(accepted.content.contains("accepted"), "{accepted:?}");
    let state = parse_state(&accepted.content);
    assert_eq!(state.to_move, ANN.id, "{accepted:?}");
    assert_board(&accepted, state.id);
    assert!(accepted.allowed_users.contains(&ANN.id), "{accepted:?}");
    let id = state.id;
    // Ann, whom the bot may write to, is told by direct message, with the board.
    let told = nth_direct(&d, ANN.id, 1).await;
    assert!(
        told["content"]
            .as_str()
            .is_some_and(|c| c.contains(&format!("game #{id} "))),
        "{told}"
    );
    assert_eq!(discord::users_of(&told), [ANN.id]);

    // Cat, not playing, presses the board's Move button: a private answer, nothing changes.
    let stranger = d.press_move(&CAT, &accepted.raw).await;
    assert!(stranger.ephemeral, "{stranger:?}");
    assert_eq!(d.move_count(id).await, 0);

    // Moves: Ann by /move, Eve through the Move button and the picker on Ann's answer.
    for round in 0..3 {
        let game = stored(&d, id).await;
        let mv = game.legal_moves()[0];
        let ans = d
            .command(&ANN, "move", vec![opt_str("move", &mv.to_string())])
            .await;
        assert_board(&ans, id);
        let after = parse_state(&ans.content);
        assert_eq!(after.to_move, EVE.id, "{ans:?}");
        assert!(
            ans.content
                .contains(&format!("Move {} · <@{}>", round * 2 + 1, ANN.id)),
            "the same words as a server's board: {ans:?}"
        );
        assert!(ans.allowed_users.contains(&EVE.id), "{ans:?}");
        // Eve cannot be written to: Ann and the chat are told so; nothing is sent to her.
        assert!(
            ans.content.contains("could not be told by direct message"),
            "{ans:?}"
        );
        let board = ans.raw.clone();

        let game = stored(&d, id).await;
        let mv = game.legal_moves()[0];
        let steps = hexcord::play::picker::steps(game.position(), &mv);
        let from = d.fake.request_count();
        let played = d.pick_move(&EVE, &board, &steps).await;
        assert!(
            played.ephemeral && played.content.contains("You played"),
            "{played:?}"
        );
        let shown = follow_up(&d, from).await;
        let body = shown.json.clone().expect("the board's message");
        let content = body["content"].as_str().unwrap_or("");
        assert_eq!(
            body["flags"].as_u64().unwrap_or(0) & 64,
            0,
            "the chat sees the board: {body}"
        );
        assert!(
            content.contains(&format!("Move {} · <@{}>", round * 2 + 2, EVE.id)),
            "{body}"
        );
        assert_eq!(parse_state(content).to_move, ANN.id, "{body}");
        // Ann is told by direct message, each time.
        nth_direct(&d, ANN.id, round + 2).await;
    }
    assert_eq!(d.move_count(id).await, 6);

    // Half of Ann's day gone: she is reminded by direct message, with the board.
    d.set_clock(t0 + DAY / 2 + 60);
    d.fake.state.age_tokens(Duration::from_secs(DAY as u64 / 2));
    let reminder = nth_direct(&d, ANN.id, 5).await;
    assert!(
        reminder["content"]
            .as_str()
            .is_some_and(|c| c.contains("Reminder")),
        "{reminder}"
    );
    // The board Ann was sent still plays: its Move button opens a fresh picker there.
    let game = stored(&d, id).await;
    let mv = game.legal_moves()[0];
    let ans = d
        .command(&ANN, "move", vec![opt_str("move", &mv.to_string())])
        .await;
    assert_board(&ans, id);

    // Eve's day runs out without a move: her reminder cannot reach her (nothing is tried), and
    // she loses on time; Ann is told by direct message with the final board.
    let moved_at = t0 + DAY / 2 + 60;
    d.set_clock(moved_at + DAY / 2 + 60);
    d.fake.state.age_tokens(Duration::from_secs(DAY as u64 / 2));
    let waited = Instant::now();
    while db_value(&d, "SELECT reminders_sent FROM games WHERE id = $1", id).await != Some(1) {
        assert!(
            waited.elapsed() < Duration::from_secs(20),
            "Eve's reminder is due"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    d.set_clock(moved_at + DAY + 60);
    d.fake.state.age_tokens(Duration::from_secs(DAY as u64 / 2));
    let over = nth_direct(&d, ANN.id, 6).await;
    let said = over["content"].as_str().unwrap_or("");
    assert!(said.contains("ran out of time"), "{over}");
    assert_eq!(d.game_status(id).await, "finished");
    assert_eq!(d.winner(id).await, Some(ANN.id));
    assert!(
        d.fake.directs_to(EVE.id).is_empty(),
        "Eve is never written to"
    );

    // The rated result counts in the pool of games outside servers: Ann's /rating here shows
    // it; the server's leaderboard does not.
    let profile = d.command(&ANN, "profile", vec![]).await;
    let shown = profile.embeds.to_string();
    assert!(
        shown.contains("inpHeXion") && shown.contains("1 game"),
        "{profile:?}"
    );
    let pool_rows = db_value(
        &d,
        "SELECT COUNT(*) FROM ratings WHERE guild_id = $1",
        hexcord::play::chats::RATINGS.0 as i64,
    )
    .await;
    assert_eq!(pool_rows, Some(2));
    // An unrated game Ann resigns: the chat sees the final board after the confirmation.
    let unrated = json!({"name": "rated", "type": 5, "value": false});
    let ch = d.challenge(&ANN, &EVE, "inphexion", &[unrated]).await;
    let second = parse_state(&d.press(&EVE, &ch, "accept").await.content).id;
    let ans = d
        .command(
            &ANN,
            "resign",
            vec![json!({"name": "game", "type": 3, "value": second.to_string()})],
        )
        .await;
    assert!(ans.ephemeral, "{ans:?}");
    let confirm = discord::Pressable::from_answer(&ans, &d.fake);
    let from = d.fake.request_count();
    let done = d.press(&ANN, &confirm, "resign").await;
    assert_eq!(done.callback_type, 7, "{done:?}");
    let final_board = follow_up(&d, from).await.json.expect("the final board");
    let said = final_board["content"].as_str().unwrap_or("");
    assert!(said.contains("resign"), "{final_board}");
    assert_eq!(d.winner(second).await, Some(EVE.id));

    d.in_chat(None);
    let table = d
        .command(
            &ANN,
            "leaderboard",
            vec![json!({"name": "game", "type": 4, "value": 0})],
        )
        .await;
    assert!(
        !table.embeds.to_string().contains(&ANN.id.to_string()),
        "{table:?}"
    );
    assert!(!table.content.contains(&ANN.id.to_string()), "{table:?}");

    // Nothing Discord would refuse: no post, edit or thread in the chat, no token past its 15
    // minutes, no message to a member the bot may not write to.
    let in_chat = d
        .fake
        .state
        .requests
        .lock()
        .unwrap()
        .iter()
        .filter(|r| r.path.starts_with(&format!("/channels/{chat}")))
        .count();
    assert_eq!(in_chat, 0, "the bot never posts in the chat on its own");
    let refused = d.fake.refused_by_the_limits();
    assert!(refused.is_empty(), "refused: {refused:#?}");
    d.end(&mut bot, "a game in a group chat", started).await;
}

/// In a server that did not install hexcord (its bot no member there), a member who installed
/// it to their account challenges another: the game is played as in a chat (no server, nothing
/// posted in the channel, the boards in the answers), and Discord refuses nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_members_installation_in_a_server_without_the_bot_plays_as_in_a_chat() {
    let started = Instant::now();
    let d = Discord::start("elsewhere").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    d.install(&ANN);
    let elsewhere: u64 = 910_000_000_000_000_777;
    // The fake refuses the bot in that channel as in any chat it is not in.
    let channel = d.open_chat(&[&ANN, &CAT]);
    d.in_chat(Some(InChat {
        channel,
        installer: ANN.id,
        server: Some(elsewhere),
    }));
    let ch = d.challenge(&ANN, &CAT, "inphexion", &[]).await;
    let accepted = d.press(&CAT, &ch, "accept").await;
    let state = parse_state(&accepted.content);
    assert_board(&accepted, state.id);
    let game = stored(&d, state.id).await;
    let mv = game.legal_moves()[0];
    let ans = d
        .command(&ANN, "move", vec![opt_str("move", &mv.to_string())])
        .await;
    assert_board(&ans, state.id);
    assert_eq!(parse_state(&ans.content).to_move, CAT.id, "{ans:?}");
    assert_eq!(
        db_value(
            &d,
            "SELECT COUNT(*) FROM games WHERE id = $1 AND guild_id IS NULL",
            state.id
        )
        .await,
        Some(1),
        "stored with no server"
    );
    let refused = d.fake.refused_by_the_limits();
    assert!(refused.is_empty(), "refused: {refused:#?}");
    d.end(&mut bot, "a game in a server without the bot", started)
        .await;
}

/// The lines a board's caption names move `ply` with: its player, the move in words (read
/// against the position before it) and its notation in small print.
fn move_lines(game: &hexcord::games::Game, ply: usize, who: u64) -> String {
    let before = game
        .position_at(ply - 1)
        .expect("the position before the move");
    let mv = game.moves()[ply - 1];
    let words = hexcord::play::picker::describe(hexcord::i18n::Lang::EN, &before, &mv);
    format!("Move {ply} · <@{who}>: {words}\n-# `{mv}`")
}

/// No Follow button on a chat's board: everyone in the chat sees its boards.
fn assert_no_follow(shown: &Value) {
    assert!(
        !discord::components_of(&shown["components"]).any(|c| c["custom_id"]
            .as_str()
            .is_some_and(|i| i.starts_with("hx:follow:"))),
        "no Follow button in a chat: {shown}"
    );
}

/// In a group chat where both players installed hexcord, a conditional reply is played at once
/// after the move it answers, typed or made with the picker: the chat's board names both moves,
/// each by its player with its notation, and marks the reply as the conditional move it is.
/// The chat's boards carry no Follow button; an onlooker pressing one on an older board is told
/// why, and nothing changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conditional_reply_in_a_group_chat_is_named_on_its_board() {
    let started = Instant::now();
    let d = Discord::start("chat_plans").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    d.install(&CAT);
    d.stranger(&EVE);
    d.enter_chat(&ANN, &[&ANN, &CAT, &EVE]);
    let size5 = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &CAT, "inphexion", &[size5]).await;
    let accepted = d.press(&CAT, &ch, "accept").await;
    let id = parse_state(&accepted.content).id;
    assert_board(&accepted, id);
    assert_no_follow(&accepted.raw);
    let game_opt = opt_str("game", &id.to_string());

    // Cat plans her reply to Ann's first move; Ann plays it by /move.
    let game = stored(&d, id).await;
    let first = game.legal_moves()[0].to_string();
    let mut line = game.clone();
    line.play_text(&first).expect("a legal move");
    let reply = line.legal_moves()[0].to_string();
    let planned = d
        .command(
            &CAT,
            "move",
            vec![
                opt_str("move", &reply),
                game_opt.clone(),
                opt_str("if", &first),
            ],
        )
        .await;
    assert!(
        planned.ephemeral && planned.content.contains("Planned"),
        "{planned:?}"
    );
    let ans = d
        .command(
            &ANN,
            "move",
            vec![opt_str("move", &first), game_opt.clone()],
        )
        .await;
    assert_board(&ans, id);
    assert_no_follow(&ans.raw);
    assert_eq!(d.move_count(id).await, 2);
    let game = stored(&d, id).await;
    let named = format!(
        "{}\n{}",
        move_lines(&game, 1, ANN.id),
        move_lines(&game, 2, CAT.id)
    );
    assert!(ans.content.contains(&named), "both moves: {ans:?}");
    assert!(
        ans.content
            .contains(&format!("⏩ <@{}>'s conditional move", CAT.id)),
        "the reply marked as planned: {ans:?}"
    );
    assert_eq!(parse_state(&ans.content).to_move, ANN.id, "{ans:?}");
    assert!(ans.allowed_users.contains(&ANN.id), "{ans:?}");

    // Again, Ann's move made with the picker on that board: the board following it names both.
    let third = game.legal_moves()[0];
    let mut line = game.clone();
    line.play(third).expect("a legal move");
    let reply = line.legal_moves()[0].to_string();
    let planned = d
        .command(
            &CAT,
            "move",
            vec![
                opt_str("move", &reply),
                game_opt.clone(),
                opt_str("if", &third.to_string()),
            ],
        )
        .await;
    assert!(
        planned.ephemeral && planned.content.contains("Planned"),
        "{planned:?}"
    );
    let steps = hexcord::play::picker::steps(game.position(), &third);
    let from = d.fake.request_count();
    let played = d.pick_move(&ANN, &ans.raw, &steps).await;
    assert!(played.ephemeral, "{played:?}");
    let shown = follow_up(&d, from).await.json.expect("the board's message");
    let content = shown["content"].as_str().unwrap_or("");
    assert_eq!(d.move_count(id).await, 4);
    let game = stored(&d, id).await;
    let named = format!(
        "{}\n{}",
        move_lines(&game, 3, ANN.id),
        move_lines(&game, 4, CAT.id)
    );
    assert!(content.contains(&named), "both moves: {shown}");
    assert!(
        content.contains(&format!("⏩ <@{}>'s conditional move", CAT.id)),
        "{shown}"
    );
    assert_no_follow(&shown);

    // Eve, watching, presses Follow on a board sent before chats' boards lost it: told why.
    let mut older = ans.raw.clone();
    older["components"][0]["components"]
        .as_array_mut()
        .expect("the board's buttons")
        .push(json!({"type": 2, "style": 2, "label": "Follow", "custom_id": format!("hx:follow:{id}")}));
    let follow = d
        .press_id(&EVE, &d.shown_post(&older), &format!("hx:follow:{id}"))
        .await;
    assert!(
        follow.ephemeral && follow.content.contains("direct or group chat"),
        "{follow:?}"
    );
    assert_eq!(
        db_value(&d, "SELECT COUNT(*) FROM followers WHERE game_id = $1", id).await,
        Some(0)
    );
    let refused = d.fake.refused_by_the_limits();
    assert!(refused.is_empty(), "refused: {refused:#?}");
    d.end(&mut bot, "a conditional reply in a group chat", started)
        .await;
}
