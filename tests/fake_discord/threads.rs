//! A thread for each game: boards and notices go to it, and to the channel when it cannot be used.

use std::time::Instant;

use serde_json::json;

use crate::common::{db_value, opt_str};
use crate::discord::{self, Bot, Discord, ANN, BOB, CAT, MOD};
use crate::server;

/// The new posts (not repeated nonces) in exactly `channel` from request `from` on: their bodies.
fn posts_in(d: &Discord, from: usize, channel: u64) -> Vec<serde_json::Value> {
    let path = format!("/channels/{channel}/messages");
    d.fake.state.requests.lock().unwrap()[from..]
        .iter()
        .filter(|r| r.is_new_post() && r.path == path)
        .filter_map(|r| r.json.clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_for_each_game() {
    let started = Instant::now();
    let d = Discord::start("threads").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let channel = server::CHANNEL_ID;
    let size4 = json!({"name": "size", "type": 4, "value": 4});

    // Accepted, the game gets a public thread started from the challenge message, named after
    // the game, with both players in it; its first board goes there.
    let ch = d
        .challenge(&ANN, &BOB, "inphexion", std::slice::from_ref(&size4))
        .await;
    // (The bot stores the challenge message's id just after showing it; a member cannot press
    // that fast.)
    for _ in 0..100 {
        let stored = "SELECT count(*) FROM challenges WHERE id = $1 AND message_id IS NOT NULL";
        if db_value(&d, stored, 1).await == Some(1) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let from = d.fake.request_count();
    let game = d.accept(&BOB, &ch).await;
    let (thread, t) = d.fake.thread_of(game.id).expect("the game's thread");
    assert_eq!(t.parent, channel);
    assert_eq!(t.name, format!("#{} inpHeXion · ann vs bob", game.id));
    let challenge_message = db_value(
        &d,
        "SELECT message_id FROM challenges WHERE game_id = $1",
        game.id,
    )
    .await;
    assert_eq!(t.from.map(|m| m as i64), challenge_message, "{t:?}");
    assert!(
        t.members.contains(&ANN.id) && t.members.contains(&BOB.id),
        "{t:?}"
    );
    assert_eq!(
        posts_in(&d, from, thread).len(),
        1,
        "the first board is in the thread"
    );
    assert!(
        posts_in(&d, from, channel).is_empty(),
        "nothing more in the channel"
    );

    // Inside the thread, commands need no game option; new games start in the channel.
    d.act_in(thread);
    let cat_board = d.command(&CAT, "board", vec![]).await;
    assert!(
        cat_board.content.contains(&format!("game #{}", game.id)) && cat_board.files.len() == 1,
        "{cat_board:?}"
    );
    // `/board` shows the game with its Move button: the player to move gets their picker.
    let shown_board = json!({"content": cat_board.content, "components": cat_board.components});
    let mover = if game.to_move == ANN.id { &ANN } else { &BOB };
    let picker = d.press_move(mover, &shown_board).await;
    assert!(
        picker.ephemeral && picker.content.contains("your move"),
        "{picker:?}"
    );
    d.refused_challenge(&ANN, &CAT, "exxit", &[], "belongs to game")
        .await;
    let follow = d
        .command(&CAT, "follow", vec![opt_str("game", &game.id.to_string())])
        .await;
    assert!(follow.content.contains("You follow"), "{follow:?}");
    assert!(d
        .fake
        .thread_of(game.id)
        .unwrap()
        .1
        .members
        .contains(&CAT.id));
    let empty = json!({"name": "move", "type": 3, "value": "", "focused": true});
    let choices = d.autocomplete_choices(&ANN, "move", vec![empty]).await;
    assert!(!choices.is_empty(), "suggestions without the game option");
    let from = d.fake.request_count();
    let played = d
        .command(&ANN, "move", vec![opt_str("move", &choices[0].1)])
        .await;
    assert!(
        played.content.contains("You played") || played.content.contains("You passed"),
        "{played:?}"
    );
    d.board_post(from, game.id, 1).await;
    assert_eq!(
        posts_in(&d, from, thread).len(),
        1,
        "{:?}",
        posts_in(&d, from, channel)
    );
    // Ann asks to take it back (no game option in the thread); Bob declines: it stands.
    let ask = d.command(&ANN, "takeback", vec![]).await;
    assert!(ask.allowed_users.contains(&BOB.id), "{ask:?}");
    let ask = discord::Pressable::from_answer(&ask, &d.fake);
    d.answer_challenge(&BOB, &ask, "tbno", "declined").await;
    assert_eq!(d.move_count(game.id).await, 1);

    // Bob resigns from the thread: the final board (with Cat, who follows) in the thread, one
    // line in the channel, and the thread archived.
    let from = d.fake.request_count();
    let resign = d.command(&BOB, "resign", vec![]).await;
    let p = discord::Pressable::from_answer(&resign, &d.fake);
    d.press(&BOB, &p, "resign").await;
    let line = d.posted(from, Some(channel), "🏁").await;
    assert_eq!(line.path, format!("/channels/{channel}/messages"));
    let line = line.json.unwrap_or_default();
    assert!(
        line["content"]
            .as_str()
            .is_some_and(|c| c.contains(&format!("<@{}> (", ANN.id))
                && c.contains(&format!("beat <@{}> by resignation", BOB.id))
                && c.contains(&format!("<#{thread}>"))),
        "{line}"
    );
    let last = posts_in(&d, from, thread);
    let final_board = last.last().expect("the final board in the thread").clone();
    let text = final_board["content"].as_str().unwrap_or("");
    assert!(
        text.contains("Game over")
            && text.contains("/replay game:")
            && text.contains("/record game:"),
        "{text}"
    );
    assert!(
        discord::users_of(&final_board).contains(&CAT.id),
        "{final_board}"
    );
    for _ in 0..100 {
        if d.fake.thread_of(game.id).unwrap().1.archived {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(d.fake.thread_of(game.id).unwrap().1.archived, "archived");

    // The Rematch button pressed in the thread offers the rematch in the channel; accepted, the
    // new game gets its own thread from that message.
    let rematch = discord::components_of(&final_board["components"])
        .find(|c| c["label"] == "Rematch")
        .and_then(|c| c["custom_id"].as_str())
        .expect("a Rematch button")
        .to_string();
    // The offer goes through the delivery queue. First the channel refuses it: Ann, told at
    // once that it is offered there, then learns by direct message why it could not be, and
    // the offer is withdrawn (it does not count as open: pressing again offers it anew).
    d.fake.inject(server::Fault::missing_permissions(
        format!("/channels/{channel}/messages"),
        1,
    ));
    let from = d.fake.request_count();
    let refused = d
        .press_id(&ANN, &d.shown_post(&final_board), &rematch)
        .await;
    assert!(
        refused.ephemeral && refused.content.contains(&format!("<#{channel}>")),
        "{refused:?}"
    );
    let posts = format!("/channels/{channel}/messages");
    let (_, told) = d
        .fake
        .wait_for(from, "Ann told by direct message", |r| {
            r.is_new_post()
                && r.path != posts
                && r.json.as_ref().is_some_and(|j| {
                    j["content"].as_str().is_some_and(|c| {
                        c.contains("Missing Permissions")
                            && c.contains("withdrawn")
                            && c.contains("rematch")
                    })
                })
        })
        .await;
    assert!(told.files.is_empty(), "no board with the news: {told:?}");
    assert!(
        posts_in(&d, from, channel).is_empty(),
        "nothing shown in the channel"
    );
    let from = d.fake.request_count();
    let offered = d
        .press_id(&ANN, &d.shown_post(&final_board), &rematch)
        .await;
    assert!(
        offered.ephemeral && offered.content.contains(&format!("<#{channel}>")),
        "{offered:?}"
    );
    // Posted by the delivery, with the challenge's buttons.
    d.fake
        .wait_for(from, "the rematch offer in the channel", |r| {
            r.is_new_post() && r.path == posts
        })
        .await;
    let offer = posts_in(&d, from, channel);
    assert_eq!(offer.len(), 1, "{offer:?}");
    assert!(
        offer[0]["content"]
            .as_str()
            .is_some_and(|c| c.contains("rematch"))
            && discord::users_of(&offer[0]) == vec![BOB.id],
        "{}",
        offer[0]
    );
    d.act_in(channel);
    let mut ids = std::collections::HashMap::new();
    for c in discord::components_of(&offer[0]["components"]) {
        if let Some(id) = c["custom_id"].as_str() {
            ids.insert(
                id.split(':').nth(1).unwrap_or("").to_string(),
                id.to_string(),
            );
        }
    }
    let offer = discord::Pressable {
        message: d.shown_post(&offer[0]),
        ids,
    };
    let next = d.accept(&BOB, &offer).await;
    assert_eq!(next.to_move, BOB.id, "colours swapped");
    let (t2_id, t2) = d.fake.thread_of(next.id).expect("the rematch's thread");
    assert!(t2.from.is_some() && t2.parent == channel, "{t2:?}");

    // The thread refuses a post (Send Messages in Threads taken away): the game goes on in the
    // channel, and the moderators are told once.
    d.fake.inject(server::Fault::missing_permissions(
        format!("/channels/{t2_id}/messages"),
        1,
    ));
    let from = d.fake.request_count();
    let next = d.play_suggested(&next).await;
    assert!(
        posts_in(&d, from, channel).iter().any(|p| p["content"]
            .as_str()
            .is_some_and(|c| c.contains(&format!("game #{} ", next.id)))),
        "the board in the channel"
    );
    d.posted(from, Some(channel), "Send Messages in Threads")
        .await;
    assert_eq!(
        db_value(&d, "SELECT thread_id FROM games WHERE id = $1", next.id).await,
        None
    );

    // A game against the bot gets a thread of its own (no challenge message).
    let against = d.play_bot(&CAT, "exxit", 0, &[]).await;
    let (_, t3) = d.fake.thread_of(against.id).expect("the bot game's thread");
    assert!(t3.from.is_none(), "{t3:?}");
    assert_eq!(
        t3.members,
        [server::BOT_ID, CAT.id],
        "the bot opens it; Cat is added"
    );

    // Without the permission to open threads, games are played in the channel and the
    // moderators are told once, naming it.
    for path in [
        format!("/channels/{channel}/messages/*"),
        format!("/channels/{channel}/threads"),
    ] {
        d.fake.inject(server::Fault::missing_permissions(path, 2));
    }
    let from = d.fake.request_count();
    let mut fallback = Vec::new();
    for (who, other) in [(&ANN, &CAT), (&BOB, &CAT)] {
        let ch = d
            .challenge(who, other, "inphexion", std::slice::from_ref(&size4))
            .await;
        fallback.push(d.accept(other, &ch).await);
    }
    for g in &fallback {
        assert!(d.fake.thread_of(g.id).is_none(), "no thread for #{}", g.id);
    }
    // Posted, not only tried: under the channel's limit its first try may be answered 429.
    let path = format!("/channels/{channel}/messages");
    d.fake
        .wait_for(from, "the moderators' notice, posted", |r| {
            r.is_new_post()
                && r.path == path
                && r.json.as_ref().is_some_and(|j| {
                    j["content"]
                        .as_str()
                        .is_some_and(|c| c.contains("Create Public Threads"))
                })
        })
        .await;
    let here = posts_in(&d, from, channel);
    let notices = here
        .iter()
        .filter(|p| {
            p["content"]
                .as_str()
                .is_some_and(|c| c.contains("Moderators"))
        })
        .count();
    assert_eq!(notices, 1, "told once: {here:?}");
    for g in &fallback {
        let tag = format!("game #{} ", g.id);
        assert!(
            here.iter()
                .any(|p| p["content"].as_str().is_some_and(|c| c.contains(&tag))),
            "the board of #{} in the channel: {here:?}",
            g.id
        );
    }

    // Moderators turn threads off: the next game stays in the channel.
    d.refused(
        &ANN,
        "server",
        vec![json!({"name": "threads", "type": 4, "value": 1})],
        "manage the server",
    )
    .await;
    let off = d
        .command(
            &MOD,
            "server",
            vec![json!({"name": "threads", "type": 4, "value": 1})],
        )
        .await;
    assert!(off.ephemeral && off.content.contains("off"), "{off:?}");
    let ch = d.challenge(&CAT, &MOD, "exxit", &[]).await;
    let plain = d.accept(&MOD, &ch).await;
    assert!(d.fake.thread_of(plain.id).is_none());

    bot.kill().await;
    let v = d.fake.violations();
    assert!(v.is_empty(), "requests that break Discord's spec: {v:#?}");
    // The only problems logged are the refusals above, once each.
    let problems = d.log_problems();
    let expected = [
        "cannot post in a channel",
        "the game's thread refused a message",
        "could not post",
        "cannot open a game's thread",
        "cannot open a game's thread",
    ];
    assert_eq!(problems.len(), expected.len(), "{problems:#?}");
    for needle in expected {
        assert!(
            problems.iter().any(|p| p.contains(needle)),
            "{needle}: {problems:#?}"
        );
    }
    eprintln!("threads end-to-end took {:?}", started.elapsed());
}
