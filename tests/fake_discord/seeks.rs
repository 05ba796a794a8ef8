//! Seeks: `/seek` matches two members' compatible seeks into a game at once; a seek left open
//! is shown with an Accept button per variant, which its author cannot press and only its
//! author withdraws. Once moderators set a seek channel and a game's role, a seek is posted
//! there pinging the role (taken by a member with a button), and another member accepts it from
//! the lobby of their inbox page, which starts the game. A role the bot cannot mention is
//! refused, nothing saved.

use std::time::Instant;

use serde_json::{json, Value};

use fantoccini::Locator;

use crate::discord::{parse_state, users_of, Bot, Discord, Pressable, ANN, BOB, CAT, MOD};
use crate::web_page::{get_json, until, Driver};

/// The role moderators make inpHeXion's seek role.
const ROLE: u64 = 940_000_000_000_000_001;

/// The bot's permissions in the channel without Mention Everyone (bit 17).
const NO_MENTION_EVERYONE: u64 = 2_248_473_465_835_073 & !(1 << 17);

/// The role as Discord resolves it in a command's options (every field its spec requires).
fn role(mentionable: bool) -> Value {
    json!({"id": ROLE.to_string(), "name": "inpHeXion players", "color": 0,
           "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
           "hoist": false,
           "icon": null, "unicode_emoji": null, "position": 1, "permissions": "0",
           "managed": false, "mentionable": mentionable, "flags": 0})
}

fn days(option: &str, index: u64) -> Value {
    json!({"name": option, "type": 4, "value": index})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_are_matched_posted_with_their_role_and_accepted() {
    let started = Instant::now();
    let d = Discord::start("seeks").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let inphexion = json!({"name": "game", "type": 4, "value": 0});
    let sizes = |s: &str| json!({"name": "sizes", "type": 3, "value": s});

    // Conflicting options change nothing: 7 days at least, 1 at most.
    d.refused(
        &ANN,
        "seek",
        vec![
            inphexion.clone(),
            days("days_per_move", 2),
            days("max_days_per_move", 0),
        ],
        "swap them",
    )
    .await;

    // Ann seeks 7×7 or 9×9 at 1 to 3 days a move: nobody else seeks, so her card is shown here,
    // pinging nobody, with an Accept button per variant and Withdraw.
    let ans = d
        .command(
            &ANN,
            "seek",
            vec![
                inphexion.clone(),
                sizes("7 9"),
                days("days_per_move", 0),
                days("max_days_per_move", 1),
            ],
        )
        .await;
    assert!(!ans.ephemeral, "{ans:?}");
    assert!(
        ans.content.starts_with(&format!(
            "<@{}> seeks a game: **inpHeXion 7×7 or inpHeXion 9×9**, rated, 1–3 days a move.",
            ANN.id
        )),
        "{ans:?}"
    );
    assert!(ans.allowed_users.is_empty(), "nobody is pinged: {ans:?}");
    let card = Pressable::from_answer(&ans, &d.fake);
    let mut verbs: Vec<&str> = card.ids.keys().map(String::as_str).collect();
    verbs.sort_unstable();
    assert_eq!(verbs, ["seek0", "seek1", "unseek"]);

    // Her own seek is not hers to accept; nobody else withdraws it.
    d.refused_press(&ANN, &card, "seek1", "your own seek").await;
    d.refused_press(&BOB, &card, "unseek", "only the member who made")
        .await;

    // Bob seeks 9×9 at 3 to 7 days: matched at once with Ann's seek, at 3 days a move; Ann,
    // who waited, moves first, and her card says who took it.
    let from = d.fake.request_count();
    let ans = d
        .command(
            &BOB,
            "seek",
            vec![
                inphexion.clone(),
                sizes("9"),
                days("days_per_move", 1),
                days("max_days_per_move", 2),
            ],
        )
        .await;
    assert!(
        !ans.ephemeral
            && ans.content.contains("were both looking for a game")
            && ans.content.contains("(inpHeXion 9×9, 3 days a move)"),
        "{ans:?}"
    );
    let (_, board) = d
        .fake
        .wait_for(from, "the matched game's first board", |r| {
            r.is_new_post() && d.fake.in_channel(&r.path, d.channel()) && !r.files.is_empty()
        })
        .await;
    let body = board.json.unwrap_or(Value::Null);
    let game = parse_state(body["content"].as_str().unwrap_or(""));
    assert_eq!(game.to_move, ANN.id, "{body}");
    assert!(users_of(&body).contains(&ANN.id), "{body}");
    d.fake
        .wait_for(from, "Ann's card, taken", |r| {
            r.method == "PATCH"
                && r.json.as_ref().is_some_and(|j| {
                    j["content"].as_str().is_some_and(|c| {
                        c.contains(&format!("<@{}> matched the seek of <@{}>", BOB.id, ANN.id))
                    }) && j["components"] == json!([])
                })
        })
        .await;
    d.refused_press(&CAT, &card, "seek0", "took this seek first")
        .await;

    // A role the bot may not mention is refused when set, and nothing is saved.
    let set = vec![
        json!({"name": "post_here", "type": 5, "value": true}),
        inphexion.clone(),
        json!({"name": "role", "type": 8, "value": ROLE.to_string()}),
    ];
    let before = d.snapshot().await;
    let ans = d
        .command_with_role(&MOD, "seeks", set.clone(), role(false), NO_MENTION_EVERYONE)
        .await;
    assert!(
        ans.ephemeral
            && ans
                .content
                .contains("I cannot mention the role `inpHeXion players`"),
        "{ans:?}"
    );
    assert_eq!(d.snapshot().await, before, "a refused role changes nothing");

    // A mentionable one is saved: this channel becomes the seek channel, where a notice offers
    // the role.
    let from = d.fake.request_count();
    let ans = d
        .command_with_role(&MOD, "seeks", set, role(true), NO_MENTION_EVERYONE)
        .await;
    assert!(
        ans.ephemeral
            && ans.content.starts_with("Saved.")
            && ans.content.contains(&format!("inpHeXion: <@&{ROLE}>")),
        "{ans:?}"
    );
    let notice = d
        .posted(from, Some(d.channel()), "Seeks are posted here")
        .await;
    let notice = notice.json.unwrap_or(Value::Null);
    let take = format!("hx:srole:{ROLE}");
    let taken = d.press_id(&CAT, &d.shown_post(&notice), &take).await;
    assert!(
        taken.ephemeral
            && taken
                .content
                .starts_with(&format!("You now have <@&{ROLE}>")),
        "{taken:?}"
    );
    let role_path = format!("/members/{}/roles/{ROLE}", CAT.id);
    let given = d.fake.state.requests.lock().unwrap()[from..]
        .iter()
        .any(|r| r.method == "PUT" && r.path.ends_with(&role_path) && r.status == 204);
    assert!(given, "the role is given");

    // Cat's seek finds no match: it is posted in the seek channel, pinging the role alone.
    let from = d.fake.request_count();
    let ans = d.command(&CAT, "seek", vec![inphexion.clone()]).await;
    assert!(
        ans.ephemeral && ans.content.contains("Your seek is posted in"),
        "{ans:?}"
    );
    let post = d
        .posted(
            from,
            Some(d.channel()),
            &format!("<@&{ROLE}> <@{}> seeks a game", CAT.id),
        )
        .await;
    let post = post.json.unwrap_or(Value::Null);
    assert_eq!(
        post["allowed_mentions"]["roles"],
        json!([ROLE.to_string()]),
        "{post}"
    );
    assert_eq!(post["allowed_mentions"]["users"], json!([]), "{post}");
    let card = Pressable {
        message: d.shown_post(&post),
        ids: ["seek0", "unseek"]
            .into_iter()
            .map(|verb| {
                let id = crate::discord::components_of(&post["components"])
                    .filter_map(|c| c["custom_id"].as_str())
                    .find(|id| id.split(':').nth(1) == Some(verb))
                    .unwrap_or_else(|| panic!("no {verb} on {post}"));
                (verb.to_string(), id.to_string())
            })
            .collect(),
    };
    d.refused_press(&ANN, &card, "unseek", "only the member who made")
        .await;

    // Ann takes it from the lobby on her inbox page (the link `/games` gives her): the game
    // starts where the card is, Cat (who waited) moving first, the card says who took it, and
    // the game opens in the page's frame.
    let games = d.command(&ANN, "games", vec![]).await;
    let link = crate::discord::components_of(&games.components)
        .find_map(|c| c["url"].as_str().filter(|u| u.contains("/inbox#t=")))
        .unwrap_or_else(|| panic!("no inbox link under /games: {games:?}"))
        .to_string();
    let (web, token) = link.split_once("/inbox#t=").expect("an inbox link");
    // The lobby's API refuses a forged token.
    let (status, _) = get_json(&format!("{web}/api/lobby"), Some(&"0f".repeat(32))).await;
    assert_eq!(status, 403);
    let (status, lobby) = get_json(&format!("{web}/api/lobby"), Some(token)).await;
    assert_eq!(status, 200, "{lobby}");
    assert_eq!(lobby["offers"][0]["author"], json!("cat"), "{lobby}");
    let driver = Driver::start().await;
    let page = driver.browser(1280, 900).await;
    page.goto(&link).await.expect("open the inbox");
    let offer = "#offers li[data-kind='seek']";
    until(
        &page,
        "Cat's seek in the lobby",
        &format!(
            "const o = document.querySelector(\"{offer}\"); \
             return o !== null && o.textContent.includes('seeks inpHeXion')"
        ),
    )
    .await;
    let from = d.fake.request_count();
    page.find(Locator::Css(&format!("{offer} button[data-variant='0']")))
        .await
        .expect("its Accept")
        .click()
        .await
        .expect("accept it");
    until(
        &page,
        "the game started, said and shown",
        "const s = document.getElementById('lobby-said'); \
         return !s.hidden && s.textContent.includes('starts in') \
           && !document.getElementById('frame').hidden",
    )
    .await;
    until(
        &page,
        "the lobby without the seek",
        &format!("return document.querySelector(\"{offer}\") === null"),
    )
    .await;
    d.fake
        .wait_for(from, "Cat's card, taken", |r| {
            r.method == "PATCH"
                && r.json.as_ref().is_some_and(|j| {
                    j["content"].as_str().is_some_and(|c| {
                        c.contains(&format!("<@{}> matched the seek of <@{}>", ANN.id, CAT.id))
                    }) && j["components"] == json!([])
                })
        })
        .await;
    let (_, board) = d
        .fake
        .wait_for(from, "the accepted seek's first board", |r| {
            r.is_new_post() && d.fake.in_channel(&r.path, d.channel()) && !r.files.is_empty()
        })
        .await;
    let body = board.json.unwrap_or(Value::Null);
    let second = parse_state(body["content"].as_str().unwrap_or(""));
    assert_eq!(second.to_move, CAT.id, "{body}");
    assert_ne!(second.id, game.id);
    // The card's own button is now told who took it.
    d.refused_press(&BOB, &card, "seek0", "took this seek first")
        .await;
    let _ = page.close().await;

    d.end(&mut bot, "seeks end-to-end", started).await;
}

/// A standing seek keeps Ann in one EXXIT game: set while Bob seeks one, it is matched at once;
/// when she resigns that game, its seek is posted again (saying it is standing), and Cat takes
/// it; `/seek … stop` ends it (a game ending then makes no seek), and set again, the card's
/// Withdraw and stop ends it too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_standing_seek_is_matched_posted_again_and_stopped() {
    let started = Instant::now();
    let d = Discord::start("standing-seeks").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let exxit = json!({"name": "game", "type": 4, "value": 1});
    let keep = |n: i64| json!({"name": "keep", "type": 4, "value": n});
    let stop = json!({"name": "stop", "type": 5, "value": true});
    let standing = |d: &Discord| {
        let url = d.db_url.clone();
        async move {
            let pool = hexcord::db::connect(&url).await.expect("db");
            let n: i64 = sqlx::query_scalar("SELECT count(*) FROM standing_seeks")
                .fetch_one(&pool)
                .await
                .expect("standing seeks");
            let open: i64 = sqlx::query_scalar("SELECT count(*) FROM seeks WHERE status = 'open'")
                .fetch_one(&pool)
                .await
                .expect("open seeks");
            pool.close().await;
            (n, open)
        }
    };

    // Impossible or conflicting options change nothing.
    d.refused(&ANN, "seek", vec![exxit.clone(), keep(11)], "from 1 to 10")
        .await;
    d.refused(
        &ANN,
        "seek",
        vec![exxit.clone(), keep(1), stop.clone()],
        "not both",
    )
    .await;
    d.refused(
        &ANN,
        "seek",
        vec![exxit.clone(), stop.clone()],
        "no standing seek",
    )
    .await;
    assert_eq!(standing(&d).await, (0, 0));

    // Bob seeks an EXXIT game; Ann's standing seek for one is matched with it at once, and both
    // are told in the game's channel.
    let ans = d.command(&BOB, "seek", vec![exxit.clone()]).await;
    assert!(ans.content.contains("seeks a game"), "{ans:?}");
    let from = d.fake.request_count();
    let ans = d.command(&ANN, "seek", vec![exxit.clone(), keep(1)]).await;
    assert!(
        ans.ephemeral
            && ans
                .content
                .starts_with("Standing seek set: you will be kept in 1 game of EXXIT")
            && ans.content.contains("It was matched at once"),
        "{ans:?}"
    );
    let told = d
        .posted(from, Some(d.channel()), "were both looking for a game")
        .await;
    let told = told.json.unwrap_or(Value::Null);
    let mut pinged = users_of(&told);
    pinged.sort_unstable();
    assert_eq!(pinged, [ANN.id, BOB.id], "{told}");
    let first = parse_state(told["content"].as_str().unwrap_or("")).id;
    assert_eq!(standing(&d).await, (1, 0));

    // Ann resigns it: having no game left, her seek is posted again here, as standing.
    let from = d.fake.request_count();
    let done = d.press(&ANN, &Pressable::resign(first), "resign").await;
    assert_eq!(done.callback_type, 7, "{done:?}");
    let card = d
        .posted(
            from,
            Some(d.channel()),
            &format!("<@{}> seeks a game: **EXXIT", ANN.id),
        )
        .await;
    let card = card.json.unwrap_or(Value::Null);
    let said = card["content"].as_str().unwrap_or("");
    assert!(
        said.contains("It is a standing seek: it keeps") && said.contains("in 1 game of these"),
        "{card}"
    );
    let labels: Vec<&str> = crate::discord::components_of(&card["components"])
        .filter_map(|c| c["label"].as_str())
        .collect();
    assert_eq!(
        labels,
        ["Accept: EXXIT 39 tiles", "Withdraw and stop"],
        "{card}"
    );
    let pressable = |card: &Value| Pressable {
        message: d.shown_post(card),
        ids: crate::discord::components_of(&card["components"])
            .filter_map(|c| c["custom_id"].as_str())
            .map(|id| {
                (
                    id.split(':').nth(1).unwrap_or("").to_string(),
                    id.to_string(),
                )
            })
            .collect(),
    };
    let card = pressable(&card);
    assert_eq!(standing(&d).await, (1, 1));

    // Cat takes it: Ann is in one game again, so no other seek is made.
    let ans = d.press(&CAT, &card, "seek0").await;
    assert!(
        ans.content
            .contains(&format!("<@{}> matched the seek of <@{}>", CAT.id, ANN.id)),
        "{ans:?}"
    );
    assert_eq!(standing(&d).await, (1, 0));
    let second = parse_state(&ans.content).id;
    assert_ne!(second, first);

    // Ann stops it: when that game ends, no seek is made.
    let ans = d
        .command(&ANN, "seek", vec![exxit.clone(), stop.clone()])
        .await;
    assert!(
        ans.ephemeral
            && ans
                .content
                .starts_with("Your standing seek of EXXIT is stopped"),
        "{ans:?}"
    );
    assert_eq!(standing(&d).await, (0, 0));
    let done = d.press(&CAT, &Pressable::resign(second), "resign").await;
    assert_eq!(done.callback_type, 7, "{done:?}");
    assert_eq!(
        standing(&d).await,
        (0, 0),
        "a stopped standing seek makes none"
    );

    // Set again while she has no game: its seek is posted at once; its card's Withdraw and
    // stop ends both.
    let from = d.fake.request_count();
    let ans = d.command(&ANN, "seek", vec![exxit.clone(), keep(1)]).await;
    assert!(
        ans.ephemeral && ans.content.contains("Its seek is posted in"),
        "{ans:?}"
    );
    let card = d
        .posted(from, Some(d.channel()), "It is a standing seek")
        .await;
    let card = pressable(&card.json.unwrap_or(Value::Null));
    let ans = d.press(&ANN, &card, "unseek").await;
    assert!(
        ans.content.contains("Their standing seek is stopped"),
        "{ans:?}"
    );
    assert_eq!(standing(&d).await, (0, 0));

    d.end(&mut bot, "standing seeks end-to-end", started).await;
}

/// The bot's direct messages to `who` from the `n`-th on (from 1) once one holds `needle`;
/// returns that one.
async fn direct_with(d: &Discord, who: u64, needle: &str) -> Value {
    let waited = Instant::now();
    loop {
        let got = d.fake.directs_to(who);
        if let Some(m) = got
            .iter()
            .rev()
            .find(|m| m["content"].as_str().is_some_and(|c| c.contains(needle)))
        {
            return m.clone();
        }
        assert!(
            waited.elapsed() < std::time::Duration::from_secs(20),
            "no direct message to {who} with `{needle}`: {got:#?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Whether `body` has the Move button of game `game`.
fn has_move(body: &Value, game: i64) -> bool {
    crate::discord::components_of(&body["components"])
        .any(|c| c["custom_id"] == format!("hx:move:{game}").as_str())
}

/// Ann and Bob, members of two different servers, each let a seek be matched across servers:
/// Bob's is matched with Ann's; the game is played in their direct messages with the bot, each
/// board coming to the player to move, who plays with its Move button and the picker there; each
/// is told of the other by Discord display name, and Ann's server learns nothing of Bob's (nor
/// his server of hers). A player who closed direct messages is not sent their board: their
/// opponent is told. Bob blocks Ann by the game's number: their next seeks across servers are
/// not matched. A server whose moderators keep it out refuses such a seek.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cross_server_match_is_played_in_direct_messages() {
    let started = Instant::now();
    let d = Discord::start("pool").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let inphexion = json!({"name": "game", "type": 4, "value": 0});
    let anywhere = json!({"name": "anywhere", "type": 5, "value": true});
    let seek = vec![inphexion.clone(), anywhere.clone()];
    let (home, away) = (crate::server::CHANNEL_ID, crate::server::CHANNEL2_ID);

    // Ann, in the first server: nobody seeks, her card waits and says it may be matched
    // elsewhere.
    d.in_server(0);
    let ans = d.command(&ANN, "seek", seek.clone()).await;
    assert!(
        !ans.ephemeral && ans.content.contains("another server"),
        "{ans:?}"
    );

    // Bob, in the second server, whose moderators keep it out: refused, nothing stored.
    d.in_server(1);
    let keep_out = vec![json!({"name": "other_servers", "type": 5, "value": false})];
    let set = d.command(&MOD, "seeks", keep_out).await;
    assert!(set.ephemeral, "{set:?}");
    d.refused(&BOB, "seek", seek.clone(), "keep it out").await;
    let let_in = vec![json!({"name": "other_servers", "type": 5, "value": true})];
    d.command(&MOD, "seeks", let_in).await;

    // Allowed, Bob's seek is matched with Ann's: a game in direct messages.
    let from = d.fake.request_count();
    let ans = d.command(&BOB, "seek", seek.clone()).await;
    assert!(
        ans.content
            .contains("matched with a player of another server")
            && ans.content.contains("direct messages"),
        "{ans:?}"
    );
    assert!(!ans.content.contains(&ANN.id.to_string()), "{ans:?}");
    let first = direct_with(&d, ANN.id, "to move").await;
    let game = parse_state(first["content"].as_str().unwrap_or("")).id;
    // Ann's card, in her server, says so and names nobody of Bob's server.
    let (_, edit) = d
        .fake
        .wait_for(from, "Ann's card, matched elsewhere", |r| {
            r.method == "PATCH"
                && r.path.starts_with(&format!("/channels/{home}/messages/"))
                && r.json.as_ref().is_some_and(|j| {
                    j["content"]
                        .as_str()
                        .is_some_and(|c| c.contains("matched with a player of another server"))
                })
        })
        .await;
    let edit = edit.json.unwrap_or(Value::Null).to_string();
    assert!(!edit.contains(&BOB.id.to_string()), "{edit}");

    // Each is told by direct message, by the other's display name, with how to block them.
    let to_ann = direct_with(&d, ANN.id, "matched across servers").await;
    let to_bob = direct_with(&d, BOB.id, "matched across servers").await;
    // Ann, who moves first, reads the words that introduce the game before its first board.
    let to_ann_all = d.fake.directs_to(ANN.id);
    let place = |needle: &str| {
        to_ann_all
            .iter()
            .position(|m| m["content"].as_str().is_some_and(|c| c.contains(needle)))
    };
    let (told, board) = (place("matched across servers"), place("to move"));
    assert!(
        told.is_some() && board.is_some() && told < board,
        "{to_ann_all:#?}"
    );
    let (to_ann, to_bob) = (to_ann.to_string(), to_bob.to_string());
    assert!(
        to_ann.contains(&format!("against **{}**", BOB.name)),
        "{to_ann}"
    );
    assert!(
        to_bob.contains(&format!("against **{}**", ANN.name)),
        "{to_bob}"
    );
    assert!(to_bob.contains(&format!("/block game:{game}")), "{to_bob}");
    // Nothing of one server reaches the other's member.
    for (dms, other) in [(ANN.id, away), (BOB.id, home)] {
        let all = serde_json::to_string(&d.fake.directs_to(dms)).unwrap_or_default();
        assert!(!all.contains(&other.to_string()), "{all}");
    }

    // The game is played in direct messages: Ann's board came to her with its Move button; she
    // plays through the picker there, then Bob through the board that comes to him.
    d.in_dm(true);
    for (who, to_move) in [(&ANN, 1), (&BOB, 1), (&ANN, 2)] {
        let board = {
            let waited = Instant::now();
            loop {
                let boards: Vec<Value> = d
                    .fake
                    .directs_to(who.id)
                    .into_iter()
                    .filter(|b| has_move(b, game))
                    .collect();
                if boards.len() >= to_move {
                    break boards[to_move - 1].clone();
                }
                assert!(
                    waited.elapsed() < std::time::Duration::from_secs(20),
                    "{boards:#?}"
                );
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
        };
        let state = parse_state(board["content"].as_str().unwrap_or(""));
        assert_eq!((state.id, state.to_move), (game, who.id), "{board}");
        let pool = hexcord::db::connect(&d.db_url).await.expect("db");
        let mut conn = pool.acquire().await.expect("a connection");
        let (_, now) = hexcord::db::load_game(&mut conn, game)
            .await
            .expect("the game loads")
            .expect("the game");
        drop(conn);
        pool.close().await;
        let mv = now.legal_moves()[0];
        let steps = hexcord::play::picker::steps(now.position(), &mv);
        let played = d.pick_move(who, &board, &steps).await;
        assert!(!played.content.contains("not"), "{played:?}");
    }
    let moves =
        crate::common::db_value(&d, "SELECT count(*) FROM moves WHERE game_id = $1", game).await;
    assert_eq!(moves, Some(3));
    // No board of the game was posted in either server.
    let in_servers = crate::common::posts_where(&d, 0, |r| {
        (d.fake.in_channel(&r.path, home) || d.fake.in_channel(&r.path, away))
            && !r.files.is_empty()
    });
    assert!(in_servers.is_empty(), "{}", in_servers.len());

    // Ann closes direct messages from server members and seeks again; Cat, in Bob's server, is
    // matched with her. Ann's board is refused: Cat is told by her display name that the game
    // waits for her, and the game's fault is stored for `/games`.
    d.close_dms(&ANN, true);
    d.in_dm(false);
    d.in_server(0);
    let ans = d.command(&ANN, "seek", seek.clone()).await;
    assert!(ans.content.contains("another server"), "{ans:?}");
    d.in_server(1);
    let ans = d.command(&CAT, "seek", seek.clone()).await;
    assert!(
        ans.content
            .contains("matched with a player of another server"),
        "{ans:?}"
    );
    let told = direct_with(&d, CAT.id, "could not send").await;
    let told = told["content"].as_str().unwrap_or("").to_string();
    assert!(
        told.contains(&format!("**{}**", ANN.name)) && told.contains("50007"),
        "{told}"
    );
    let faults = crate::common::db_value(
        &d,
        "SELECT count(*) FROM games WHERE id <> $1 AND delivery_fault LIKE '%50007%'",
        game,
    )
    .await;
    assert_eq!(faults, Some(1));
    d.close_dms(&ANN, false);
    d.in_dm(true);

    // Bob blocks Ann by the game's number, from his direct messages: their next seeks across
    // servers wait, unmatched.
    let ans = d
        .command(
            &BOB,
            "block",
            vec![json!({"name": "game", "type": 4, "value": game})],
        )
        .await;
    assert!(
        ans.ephemeral
            && ans
                .content
                .contains(&format!("You block **{}** now", ANN.name)),
        "{ans:?}"
    );
    let listed = d.command(&BOB, "block", vec![]).await;
    assert!(
        listed
            .content
            .contains(&format!("You block: **{}**.", ANN.name)),
        "{listed:?}"
    );
    d.in_dm(false);
    d.in_server(0);
    let ans = d.command(&ANN, "seek", seek.clone()).await;
    assert!(ans.content.contains("another server"), "{ans:?}");
    d.in_server(1);
    let ans = d.command(&BOB, "seek", seek).await;
    assert!(
        ans.content
            .starts_with(&format!("<@{}> seeks a game", BOB.id))
            && ans.content.contains("another server"),
        "{ans:?}"
    );

    d.end(&mut bot, "a cross-server match end-to-end", started)
        .await;
}
