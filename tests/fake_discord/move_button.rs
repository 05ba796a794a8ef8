//! Games played with the Move button and its picker (every kind of move), following a game,
//! rematches, takebacks and agreed aborts, and `/move`'s suggestions across games.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde_json::json;

use crate::common::{interesting_move, opt_str};
use crate::discord::{self, member, parse_state, Bot, Discord, Member, ANN, BOB, CAT};
use crate::server;

/// `who` takes the first choice a picker answer offers (its menu's first option, else its first
/// button).
async fn choose_first(d: &Discord, who: &Member, ans: &discord::Answer) -> discord::Answer {
    let shown = d.shown(ans);
    let parts: Vec<serde_json::Value> = discord::components_of(&ans.components).cloned().collect();
    let id = |c: &serde_json::Value| c["custom_id"].as_str().unwrap_or("").to_string();
    match parts.iter().find(|c| c["type"] == 3) {
        Some(menu) => {
            let value = menu["options"][0]["value"].as_str().unwrap_or("");
            d.select(who, &shown, &id(menu), value).await
        }
        None => {
            let button = parts.first().expect("a choice");
            d.press_id(who, &shown, &id(button)).await
        }
    }
}

/// Buttons pressed on a public board where the bot never put them (a picker's Play on a made-up
/// position, a picker's first step, Cancel, a resignation's confirmation, Keep playing, the
/// challenge's Accept) are refused in a new private message: the board stays as it is, and
/// nothing is played or changed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_buttons_on_a_public_board_are_refused_privately() {
    let started = Instant::now();
    let d = Discord::start("forged").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let size = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&ANN, &BOB, "inphexion", &[size]).await;
    let accept = ch.ids.get("accept").cloned().expect("an Accept button");
    let game = d.accept(&BOB, &ch).await;
    let board = d.shown_post(&d.last_board(game.id));
    let id = game.id;
    for forged in [
        format!("hx:play:{id}:99999999999:0.0.0"),
        format!("hx:play:{id}:0:"),
        format!("hx:pick:{id}:0:"),
        format!("hx:cancel:{id}"),
        format!("hx:resign:{id}"),
        format!("hx:keep:{id}"),
        accept,
    ] {
        let on_board = discord::Pressable {
            message: board.clone(),
            ids: std::collections::HashMap::from([("forged".to_string(), forged)]),
        };
        // By either player and by a stranger alike.
        for who in [&ANN, &BOB, &CAT] {
            d.refused_press(who, &on_board, "forged", "no longer valid")
                .await;
        }
    }
    assert_eq!(d.move_count(id).await, 0);
    assert_eq!(d.game_status(id).await, "active");
    d.end(&mut bot, "forged_buttons", started).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_played_with_the_move_button() {
    let started = Instant::now();
    let d = Discord::start("picker").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let pool = hexcord::db::connect(&d.db_url).await.expect("db");
    let pie = json!({"name": "pie", "type": 5, "value": true});
    let games = [
        (
            "inphexion",
            json!({"name": "size", "type": 4, "value": 7}),
            0,
        ),
        ("exxit", json!({"name": "tiles", "type": 4, "value": 2}), 0),
    ];
    for (kind, size, seed) in games {
        let ch = d.challenge(&ANN, &BOB, kind, &[size, pie.clone()]).await;
        let first = d.accept(&BOB, &ch).await;
        let retired_before = d.retired_boards();
        let mut board = d.last_board(first.id);
        // Cat follows the inpHeXion game; the EXXIT one she follows and then stops following.
        let game_ref = json!({"name": "game", "type": 3, "value": first.id.to_string()});
        let follow = d.command(&CAT, "follow", vec![game_ref]).await;
        assert!(
            follow.ephemeral && follow.content.contains("You follow"),
            "{follow:?}"
        );
        if kind == "exxit" {
            // Stopped with the board's Follow button.
            let button = discord::components_of(&board["components"])
                .find(|c| c["label"] == "Follow")
                .and_then(|c| c["custom_id"].as_str())
                .unwrap_or_default()
                .to_string();
            let stop = d.press_id(&CAT, &d.shown_post(&board), &button).await;
            assert!(
                stop.ephemeral && stop.content.contains("no longer follow"),
                "{stop:?}"
            );
        }
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut seen: Vec<(String, String)> = Vec::new();
        let mut stale = None;
        loop {
            let mut conn = pool.acquire().await.expect("connection");
            let (_, game) = hexcord::db::load_game(&mut conn, first.id)
                .await
                .expect("the game loads")
                .expect("the game exists");
            drop(conn);
            // Every board carries its picture's description.
            let alt = board["attachments"][0]["description"]
                .as_str()
                .unwrap_or("");
            assert!(alt.contains(&format!("game #{}", first.id)), "{board}");
            if game.is_over() {
                // Every board before the final one lost its buttons when the next was posted.
                // Those edits take their turn under the channel's limit after the posts, so the
                // last ones may follow the final board by several seconds (about 6 s is usual).
                let boards = d.boards_posted(first.id);
                let mut retired = d.retired_boards() - retired_before;
                for _ in 0..600 {
                    if retired >= boards - 1 {
                        break;
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    retired = d.retired_boards() - retired_before;
                }
                assert_eq!(retired, boards - 1, "{boards} boards posted");
                // Each old board says what followed it, no longer whose turn it was.
                let words = d.retired_words(first.id);
                assert_eq!(words.len(), boards - 1, "{words:#?}");
                for said in words.values() {
                    let last = said.lines().last().unwrap_or("");
                    assert!(last.starts_with("⏭ Next: move "), "{said}");
                    assert!(!said.contains("to move"), "{said}");
                }
                let labels: Vec<&str> = discord::components_of(&board["components"])
                    .filter_map(|c| c["label"].as_str())
                    .collect();
                assert_eq!(
                    labels,
                    ["Rematch", "Watch live"],
                    "the final board: {board}"
                );
                let cat = format!("<@{}>", CAT.id);
                let followed = board["content"]
                    .as_str()
                    .unwrap_or("")
                    .contains(&format!("Following: {cat}"));
                assert_eq!(followed, kind == "inphexion", "{board}");
                assert_eq!(
                    discord::users_of(&board).contains(&CAT.id),
                    followed,
                    "{board}"
                );
                // A stranger cannot ask for it; a player offers the other the colours swapped.
                let rematch = discord::components_of(&board["components"])
                    .find_map(|c| c["custom_id"].as_str())
                    .unwrap_or_default()
                    .to_string();
                let shown = d.shown_post(&board);
                let stranger = d.press_id(&CAT, &shown, &rematch).await;
                assert!(
                    stranger.ephemeral && stranger.content.contains("Only the players"),
                    "{stranger:?}"
                );
                let offer = d.press_id(&ANN, &shown, &rematch).await;
                assert!(
                    !offer.ephemeral && offer.content.contains("rematch"),
                    "{offer:?}"
                );
                assert!(offer.allowed_users.contains(&BOB.id), "{offer:?}");
                let again = d.press_id(&ANN, &shown, &rematch).await;
                assert!(
                    again.content.contains("already an open"),
                    "one offer at a time: {again:?}"
                );
                let offer = discord::Pressable::from_answer(&offer, &d.fake);
                if kind == "inphexion" {
                    d.answer_challenge(&BOB, &offer, "decline", "declined")
                        .await;
                } else {
                    // Ann sat first: in the rematch Bob moves first.
                    let next = d.accept(&BOB, &offer).await;
                    assert_eq!(next.to_move, BOB.id, "{next:?}");
                }
                break;
            }
            let state = parse_state(board["content"].as_str().unwrap_or(""));
            let mover = member(state.to_move);
            let waiting = if mover.id == ANN.id { &BOB } else { &ANN };
            if game.ply() == 1 {
                // The waiting player and a stranger get a short private answer.
                let not_now = d.press_move(waiting, &board).await;
                assert!(
                    not_now.ephemeral && not_now.content.contains("not yours"),
                    "{not_now:?}"
                );
                let stranger = d.press_move(&CAT, &board).await;
                assert!(
                    stranger.ephemeral && stranger.content.contains("/challenge"),
                    "{stranger:?}"
                );
            }
            // A picker opened before the third move is used only after the fourth: it plays
            // nothing and offers a fresh one.
            if game.ply() == 2 {
                stale = Some(d.press_move(mover, &board).await);
            }
            if game.ply() == 4 {
                let old = stale.take().expect("the picker opened before move 3");
                let late = choose_first(&d, mover, &old).await;
                assert!(
                    late.content.contains("has changed")
                        && late.content.contains("Nothing was played"),
                    "{late:?}"
                );
                let parts: Vec<serde_json::Value> =
                    discord::components_of(&late.components).cloned().collect();
                let fresh = parts
                    .iter()
                    .find(|c| c["label"] == "Fresh picker")
                    .expect("a fresh picker");
                let again = d
                    .press_id(
                        mover,
                        &d.shown(&late),
                        fresh["custom_id"].as_str().unwrap_or(""),
                    )
                    .await;
                assert!(again.content.contains("your move"), "{again:?}");
                assert_eq!(
                    d.move_count(first.id).await,
                    4,
                    "the stale picker played nothing"
                );
                // The other player pressing in this picker (a forged press) changes nothing.
                let forged = choose_first(&d, waiting, &again).await;
                assert!(forged.content.contains("not yours"), "{forged:?}");
            }
            let mv = interesting_move(&game, &mut rng);
            let steps = hexcord::play::picker::steps(game.position(), &mv);
            seen.push((
                mv.to_string(),
                hexcord::play::picker::describe(hexcord::i18n::Lang::EN, game.position(), &mv),
            ));
            let from = d.fake.request_count();
            let played = d.pick_move(mover, &board, &steps).await;
            let confirmed = match mv.to_string().as_str() {
                "pass" => played.content.contains("You passed"),
                mv => {
                    played.content.contains("You played")
                        && played.content.contains(&format!("`{mv}`"))
                }
            };
            assert!(confirmed, "{played:?}");
            board = d
                .board_post(from, first.id, game.ply() as i64 + 1)
                .await
                .json
                .expect("a board body");
        }
        let has = |f: &dyn Fn(&(String, String)) -> bool| seen.iter().any(f);
        if kind == "inphexion" {
            assert!(has(&|(n, _)| n == "swap"), "{seen:?}");
            assert!(has(&|(n, _)| n.contains('>')), "a relocation: {seen:?}");
            assert!(
                has(&|(n, _)| n.contains('-') && !n.contains('>')),
                "{seen:?}"
            );
        } else {
            for needle in [
                "Swap",
                "Pass",
                "Dance",
                "falls into space",
                "Lay a tile",
                "by chain",
                "Place a disc",
            ] {
                assert!(
                    has(&|(_, w)| w.contains(needle)),
                    "no `{needle}` in {seen:?}"
                );
            }
        }
        eprintln!("{kind}: {} moves played with the picker", seen.len());
    }
    pool.close().await;

    // Two games in one channel: `/move` suggests, in words, the moves of every game where it is
    // the caller's turn, each with its number; the waiting player is told whose turn it is.
    let five = json!({"name": "size", "type": 4, "value": 5});
    let ch = d.challenge(&CAT, &ANN, "inphexion", &[five]).await;
    let one = d.accept(&ANN, &ch).await;
    let ch = d.challenge(&CAT, &BOB, "exxit", &[]).await;
    let two = d.accept(&BOB, &ch).await;
    let cat_first = |g: &discord::GameState| g.to_move == CAT.id;
    assert!(
        cat_first(&one) && cat_first(&two),
        "the challenger starts: {one:?} {two:?}"
    );
    let empty = json!({"name": "move", "type": 3, "value": "", "focused": true});
    let both = d
        .autocomplete_choices(&CAT, "move", vec![empty.clone()])
        .await;
    for g in [one.id, two.id] {
        let tag = format!("#{g} · ");
        assert!(
            both.iter()
                .any(|(label, value)| label.starts_with(&tag)
                    && value.starts_with(&format!("#{g} "))),
            "game #{g} in {both:?}"
        );
    }
    assert!(
        both.iter()
            .any(|(label, _)| label.contains("Place a disc on ")),
        "{both:?}"
    );
    let (label, value) = both
        .iter()
        .find(|(_, v)| v.starts_with(&format!("#{} ", two.id)))
        .cloned()
        .expect("an EXXIT suggestion");
    let played = d.command(&CAT, "move", vec![opt_str("move", &value)]).await;
    assert!(
        played.content.contains(&format!("game #{}", two.id)),
        "{label} → {played:?}"
    );
    assert_eq!(d.move_count(two.id).await, 1);
    // Cat takes it back with Bob's agreement: the board before it is posted again.
    let game_two = json!({"name": "game", "type": 3, "value": two.id.to_string()});
    d.refused(&BOB, "takeback", vec![game_two.clone()], "your turn")
        .await;
    let ask = d.command(&CAT, "takeback", vec![game_two]).await;
    assert!(
        !ask.ephemeral && ask.allowed_users.contains(&BOB.id),
        "{ask:?}"
    );
    let ask = discord::Pressable::from_answer(&ask, &d.fake);
    d.refused_press(&CAT, &ask, "tbyes", "Only").await;
    let from = d.fake.request_count();
    d.answer_challenge(&BOB, &ask, "tbyes", "taken back").await;
    d.posted(from, Some(server::CHANNEL_ID), "took back move 1")
        .await;
    assert_eq!(d.move_count(two.id).await, 0);
    // Ann and Cat call off game one by agreement: no result.
    let game_one = json!({"name": "game", "type": 3, "value": one.id.to_string()});
    let offer = d.command(&ANN, "calloff", vec![game_one]).await;
    assert!(
        !offer.ephemeral && offer.allowed_users.contains(&CAT.id),
        "{offer:?}"
    );
    let offer = discord::Pressable::from_answer(&offer, &d.fake);
    d.refused_press(&ANN, &offer, "offyes", "Only").await;
    d.answer_challenge(&CAT, &offer, "offyes", "called off")
        .await;
    assert_eq!(d.game_status(one.id).await, "aborted");
    let waiting = d.autocomplete_choices(&ANN, "move", vec![empty]).await;
    assert_eq!(waiting.len(), 1, "{waiting:?}");
    assert!(waiting[0].0.starts_with("Not your turn"), "{waiting:?}");
    d.refused(
        &ANN,
        "move",
        vec![opt_str("move", &waiting[0].1)],
        "not your turn",
    )
    .await;

    d.end(&mut bot, "picker end-to-end", started).await;
}
