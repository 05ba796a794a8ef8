//! Open challenges: `/challenge` without an opponent posts a card any member of the server may
//! accept. Its author cannot take it, a third member does and plays, a late press is told who
//! was first, and the author withdraws another.

use std::time::Instant;

use serde_json::json;

use crate::discord::{Bot, Discord, Pressable, ANN, BOB, CAT};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_challenge_is_taken_by_a_third_member() {
    let started = Instant::now();
    let d = Discord::start("open").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let exxit = json!({"name": "game", "type": 4, "value": 1});
    let tiles19 = json!({"name": "tiles", "type": 4, "value": 2});

    // Conflicting options change nothing.
    d.refused(
        &ANN,
        "challenge",
        vec![
            exxit.clone(),
            json!({"name": "min_rating", "type": 4, "value": 1800}),
            json!({"name": "max_rating", "type": 4, "value": 1200}),
        ],
        "swap them",
    )
    .await;

    // The card: public, pinging nobody, with Accept and Withdraw.
    let ans = d
        .command(&ANN, "challenge", vec![exxit.clone(), tiles19.clone()])
        .await;
    assert!(!ans.ephemeral && ans.callback_type == 4, "{ans:?}");
    assert!(
        ans.content.starts_with(&format!(
            "<@{}> is looking for an opponent: **EXXIT 19 tiles",
            ANN.id
        )) && ans.content.contains("Any member may accept until <t:"),
        "{ans:?}"
    );
    assert!(ans.allowed_users.is_empty(), "nobody is pinged: {ans:?}");
    let card = Pressable::from_answer(&ans, &d.fake);
    let mut verbs: Vec<&str> = card.ids.keys().map(String::as_str).collect();
    verbs.sort_unstable();
    assert_eq!(verbs, ["accept", "withdraw"]);

    // Its author cannot take it; nobody else withdraws it.
    d.refused_press(&ANN, &card, "accept", "your own open challenge")
        .await;
    d.refused_press(&BOB, &card, "withdraw", "only the member who made")
        .await;

    // A third member takes it: the game starts, the challenger moving first, and is played.
    let game = d.accept(&CAT, &card).await;
    assert_eq!(game.to_move, ANN.id, "the challenger moves first");
    let next = d.play_suggested(&game).await;
    assert_eq!((next.id, next.to_move), (game.id, CAT.id));

    // A late press changes nothing and says who was first.
    d.refused_press(
        &BOB,
        &card,
        "accept",
        &format!(
            "<@{}> accepted this open challenge first: it is game #{}",
            CAT.id, game.id
        ),
    )
    .await;

    // Another, withdrawn by its author: its card says so and loses its buttons.
    let ans = d.command(&ANN, "challenge", vec![exxit, tiles19]).await;
    let card = Pressable::from_answer(&ans, &d.fake);
    d.answer_challenge(&ANN, &card, "withdraw", "withdrew their open challenge")
        .await;
    d.refused_press(&BOB, &card, "accept", "no longer open")
        .await;

    d.end(&mut bot, "open challenges end-to-end", started).await;
}
