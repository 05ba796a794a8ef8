//! Tournaments end to end: a 5-player Swiss of 3 rounds with a late join and a withdrawal, and a
//! 4-player double round robin, both to their final standings, with Join buttons pressed by
//! members, a stranger from another server and a forged button refused privately; on SQLite and
//! PostgreSQL. The Swiss event's rounds and standings go to its own thread, opened on its card;
//! its result is told in its channel too. An organiser's commands (pause, resume, correct,
//! remove, cancel) refused to a player, announced in the event's thread; the export read back by
//! `hexcord pairings`' functions pairing the next round as the bot does; a member who leaves the
//! server withdrawn.

use std::time::Instant;

use serde_json::{json, Value};

use crate::common::opt_str;
use crate::discord::{Answer, Bot, Discord, Member, Pressable, ANN, BOB, CAT, MEMBER_PERMS, MOD};
use crate::server::CHANNEL_ID;
use crate::web_page::{js, until, Driver};
use hexcord::db::{self, PairingRow, TournamentStatus, UserId};

const EVE: Member = Member {
    id: 930_000_000_000_000_005,
    name: "eve",
    bot: false,
    permissions: MEMBER_PERMS,
};
const FAY: Member = Member {
    id: 930_000_000_000_000_006,
    name: "fay",
    bot: false,
    permissions: MEMBER_PERMS,
};

fn who(id: UserId) -> &'static Member {
    [&ANN, &BOB, &CAT, &EVE, &FAY]
        .into_iter()
        .find(|m| m.id == id.0)
        .unwrap_or_else(|| panic!("no member {id}"))
}

/// `/tournament <sub> options…`.
fn sub(name: &str, options: Vec<Value>) -> Vec<Value> {
    vec![json!({"name": name, "type": 1, "options": options})]
}

fn int(name: &str, value: i64) -> Value {
    json!({"name": name, "type": 4, "value": value})
}

/// The tournament number a card names.
fn tournament_id(card: &Answer) -> i64 {
    let rest = card
        .content
        .split("(tournament #")
        .nth(1)
        .unwrap_or_else(|| panic!("no tournament in {card:?}"));
    rest.chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .expect("a number")
}

async fn pairings(d: &Discord, id: i64) -> Vec<PairingRow> {
    let pool = db::connect(&d.db_url).await.expect("db");
    let p = db::tournament_pairings(&pool, id).await.expect("pairings");
    pool.close().await;
    p
}

async fn status(d: &Discord, id: i64) -> (TournamentStatus, Option<UserId>) {
    let pool = db::connect(&d.db_url).await.expect("db");
    let t = db::fetch_tournament(&pool, id)
        .await
        .expect("tournament")
        .expect("row");
    pool.close().await;
    (t.status, t.winner_id)
}

/// The loser of each undecided game of `round` resigns with the button: the second seat.
async fn play_round(d: &Discord, id: i64, round: i64) {
    for p in pairings(d, id)
        .await
        .iter()
        .filter(|p| p.round == round && p.result.is_none())
    {
        let (Some(game), Some(black)) = (p.game_id, p.black_id) else {
            continue;
        };
        let ans = d
            .press(who(black), &Pressable::resign(game), "resign")
            .await;
        assert!(!ans.content.is_empty(), "{ans:?}");
    }
}

async fn create(d: &Discord, options: Vec<Value>) -> (Answer, Pressable, i64) {
    let card = d.command(&MOD, "tournament", sub("create", options)).await;
    assert!(!card.ephemeral && card.callback_type == 4, "{card:?}");
    let buttons = Pressable::from_answer(&card, &d.fake);
    assert!(buttons.ids.contains_key("tjoin") && buttons.ids.contains_key("tleave"));
    let id = tournament_id(&card);
    (card, buttons, id)
}

async fn swiss_of_five(postgres: bool) {
    let started = Instant::now();
    let mut d = Discord::start("tournament_swiss").await;
    if postgres {
        d.db_url = db::testing::new_pg_database().await;
    }
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;

    // Impossible settings are refused privately.
    d.refused(
        &MOD,
        "tournament",
        sub(
            "create",
            vec![
                opt_str("name", "Cup"),
                int("game", 0),
                int("format", 0),
                int("rounds", 2),
                int("max_players", 2),
            ],
        ),
        "at least 2 + 1 players",
    )
    .await;
    // A member who manages nothing may not create one by default.
    d.refused(
        &ANN,
        "tournament",
        sub(
            "create",
            vec![
                opt_str("name", "Cup"),
                int("game", 0),
                int("format", 0),
                int("rounds", 3),
            ],
        ),
        "only members who manage",
    )
    .await;
    let (card, buttons, id) = create(
        &d,
        vec![
            opt_str("name", "Autumn cup"),
            int("game", 0),
            int("format", 0),
            int("rounds", 3),
            int("size", 5),
        ],
    )
    .await;
    assert!(card.content.contains("Swiss, 3 rounds"), "{card:?}");
    // Its thread opens on its card (threads are on by default).
    let name = format!("🏆 #{id} Autumn cup");
    let deadline = Instant::now() + std::time::Duration::from_secs(40);
    let thread = loop {
        if let Some((thread, t)) = d.fake.thread_named(&name) {
            assert_eq!(t.parent, CHANNEL_ID);
            assert!(t.from.is_some(), "started from the card: {t:?}");
            break thread;
        }
        assert!(Instant::now() < deadline, "no thread {name}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    for (n, m) in [&ANN, &BOB, &CAT, &EVE].into_iter().enumerate() {
        let ans = d.press(m, &buttons, "tjoin").await;
        assert_eq!(ans.callback_type, 7, "the card is updated: {ans:?}");
        assert!(
            ans.content.contains(&format!("Players: {}", n + 1)),
            "{ans:?}"
        );
    }
    // Twice, from another server, and a forged button: refused privately, nothing changed.
    d.refused_press(&ANN, &buttons, "tjoin", "already in").await;
    d.in_server(1);
    d.refused_press(&FAY, &buttons, "tjoin", "another server")
        .await;
    d.in_server(0);
    let forged = Pressable::button("tjoin", "hx:tjoin:999");
    d.refused_press(&FAY, &forged, "tjoin", "no tournament #999")
        .await;
    let garbled = Pressable::button("tjoin", "hx:tjoin:1:2");
    d.refused_press(&FAY, &garbled, "tjoin", "no longer valid")
        .await;

    let from = d.fake.request_count();
    let ans = d
        .command(
            &MOD,
            "tournament",
            sub("start", vec![int("tournament", id)]),
        )
        .await;
    assert!(
        ans.ephemeral && ans.content.contains("has started"),
        "{ans:?}"
    );
    d.posted(from, Some(thread), "round 1 of 3").await;
    // Fay joins late: a ½-point bye for round 1.
    let ans = d
        .command(&FAY, "tournament", sub("join", vec![int("tournament", id)]))
        .await;
    assert!(ans.ephemeral && ans.content.contains("late"), "{ans:?}");
    // The card shows the count (a join by command edits it too).
    d.fake
        .wait_for(from, "the card's count", |r| {
            r.method == "PATCH"
                && r.json.as_ref().is_some_and(|j| {
                    j["content"]
                        .as_str()
                        .is_some_and(|c| c.contains("Players: 5") && c.contains("Round 1 of 3"))
                })
        })
        .await;

    let from = d.fake.request_count();
    play_round(&d, id, 1).await;
    let standings = d
        .posted(from, Some(thread), "standings after round 1")
        .await;
    assert_eq!(standings.files.len(), 1, "the standings picture");
    d.posted(from, None, "round 2 of 3").await;
    let round2: Vec<PairingRow> = pairings(&d, id)
        .await
        .into_iter()
        .filter(|p| p.round == 2)
        .collect();
    assert_eq!(round2.len(), 3, "two games and a bye: {round2:?}");
    // A player withdraws: their game is resigned.
    let quitter = round2
        .iter()
        .find_map(|p| p.black_id)
        .expect("a game in round 2");
    let from = d.fake.request_count();
    let ans = d
        .command(who(quitter), "tournament", sub("withdraw", vec![]))
        .await;
    assert!(ans.ephemeral && ans.content.contains("withdrew"), "{ans:?}");
    d.posted(from, None, "withdrew from **Autumn cup**").await;
    play_round(&d, id, 2).await;
    d.posted(from, None, "round 3 of 3").await;
    let from = d.fake.request_count();
    play_round(&d, id, 3).await;
    let last = d.posted(from, Some(thread), "is over. The winner:").await;
    assert_eq!(last.path, format!("/channels/{thread}/messages"));
    // The channel hears of the result, naming the thread.
    let line = d
        .posted(from, None, &format!("final standings are in <#{thread}>"))
        .await;
    assert_eq!(line.path, format!("/channels/{CHANNEL_ID}/messages"));
    let (state, winner) = status(&d, id).await;
    assert_eq!(state, TournamentStatus::Finished);
    assert!(winner.is_some());
    // The standings: in words and as a picture.
    let ans = d
        .command(
            &CAT,
            "tournament",
            sub("standings", vec![int("tournament", id)]),
        )
        .await;
    assert!(ans.content.contains("Buchholz cut-1"), "{ans:?}");
    assert_eq!(ans.files.len(), 1, "the standings picture");
    assert!(ans.files[0].starts_with(b"\x89PNG"));
    d.end(&mut bot, "tournament_swiss", started).await;
}

async fn double_round_robin_of_four(postgres: bool) {
    let started = Instant::now();
    let mut d = Discord::start("tournament_rr").await;
    if postgres {
        d.db_url = db::testing::new_pg_database().await;
    }
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;
    let (card, buttons, id) = create(
        &d,
        vec![
            opt_str("name", "Club league <i>"),
            int("game", 1),
            int("format", 2),
            int("tiles", 2),
        ],
    )
    .await;
    // The card links to the event's page on the web board.
    let page_url = crate::discord::components_of(&card.components)
        .find_map(|c| c["url"].as_str().map(str::to_string))
        .unwrap_or_else(|| panic!("the card has no link to the event's page: {card:?}"));
    assert!(
        page_url.ends_with(&format!("/tournament/{id}")),
        "{page_url}"
    );
    for m in [&ANN, &BOB, &CAT, &EVE] {
        d.press(m, &buttons, "tjoin").await;
    }
    // Leave and join again before the start.
    let ans = d.press(&EVE, &buttons, "tleave").await;
    assert!(ans.content.contains("Players: 3"), "{ans:?}");
    d.press(&EVE, &buttons, "tjoin").await;
    let from = d.fake.request_count();
    d.command(&MOD, "tournament", sub("start", vec![])).await;
    d.posted(from, None, "begins with 4 players").await;
    // Every game at once: six rounds of two.
    let all = pairings(&d, id).await;
    assert_eq!(all.len(), 12);
    d.refused(
        &FAY,
        "tournament",
        sub("join", vec![int("tournament", id)]),
        "has started",
    )
    .await;
    // The event's page on a phone (SQLite run only: one browser is enough): every game in
    // progress linked to its live board, then the standings after each round as it is
    // decided, without reloading the page, and the event over.
    let browser = if postgres {
        None
    } else {
        let driver = Driver::start().await;
        let c = driver.phone(390, 844).await;
        c.goto(&page_url).await.expect("open the event's page");
        until(&c, "the page", "return document.readyState === 'complete'").await;
        let page = js(
            &c,
            "return { title: document.querySelector('h1').textContent, \
             text: document.body.innerText, \
             wide: document.documentElement.scrollWidth, screen: window.innerWidth, \
             rounds: document.querySelectorAll('section.round').length, \
             watch: [...document.querySelectorAll('li.playing a.game')].map(a => a.href) };",
        )
        .await;
        assert_eq!(page["title"], "Club league <i>", "{page}");
        assert!(
            page["wide"].as_u64() <= page["screen"].as_u64(),
            "scrolls sideways: {page}"
        );
        assert_eq!(page["rounds"], 6, "{page}");
        let text = page["text"].as_str().unwrap_or_default();
        assert!(text.contains("No round is decided yet."), "{page}");
        let mut watch: Vec<String> = page["watch"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|u| u.as_str().map(str::to_string))
            .collect();
        watch.sort();
        let mut games: Vec<String> = all
            .iter()
            .filter_map(|p| p.game_id)
            .map(|g| {
                format!(
                    "{}/game/{g}",
                    page_url.trim_end_matches(&format!("/tournament/{id}"))
                )
            })
            .collect();
        games.sort();
        assert_eq!(watch, games, "every game in progress is linked: {page}");
        Some((driver, c))
    };
    let from = d.fake.request_count();
    for round in 1..=6 {
        play_round(&d, id, round).await;
        if let Some((_, c)) = &browser {
            // The page follows by itself (it reads itself again every few seconds).
            if round < 6 {
                until(
                    c,
                    &format!("the standings after round {round}"),
                    &format!(
                        "const s = document.querySelector('section.standings'); \
                         return !!s && s.dataset.round === '{round}' \
                         && document.querySelectorAll('section.standings tbody tr').length === 4;"
                    ),
                )
                .await;
            }
        }
    }
    d.posted(from, None, "is over. The winner:").await;
    let (state, winner) = status(&d, id).await;
    assert_eq!(state, TournamentStatus::Finished);
    assert!(winner.is_some());
    if let Some((_driver, c)) = browser {
        until(
            &c,
            "the event over",
            "const e = document.getElementById('event'); \
             return e.dataset.over === 'true' \
             && document.querySelectorAll('li.playing').length === 0 \
             && document.querySelectorAll('li.decided a.game').length === 12;",
        )
        .await;
        // A finished game's link opens its page.
        let first = js(
            &c,
            "return document.querySelector('li.decided a.game').href;",
        )
        .await;
        let first = first.as_str().unwrap_or_default().to_string();
        c.goto(&first).await.expect("open a game's page");
        until(
            &c,
            "the game's page",
            "return document.readyState === 'complete'",
        )
        .await;
        let status = js(&c, "return document.title;").await;
        assert!(
            status.as_str().is_some_and(|t| !t.is_empty()),
            "{first}: {status}"
        );
        let _ = c.close().await;
    }
    d.end(&mut bot, "tournament_rr", started).await;
}

async fn organisers_run_an_event_and_export_it(postgres: bool) {
    let started = Instant::now();
    let mut d = Discord::start("tournament_organisers").await;
    if postgres {
        d.db_url = db::testing::new_pg_database().await;
    }
    let mut bot = Bot::start_with(&d, &[("SERVER_MEMBERS_INTENT", "on")]).await;
    d.fake.wait_ready(1).await;
    let (_, buttons, id) = create(
        &d,
        vec![
            opt_str("name", "Winter cup"),
            int("game", 0),
            int("format", 0),
            int("rounds", 3),
            int("size", 5),
        ],
    )
    .await;
    let name = format!("🏆 #{id} Winter cup");
    let deadline = Instant::now() + std::time::Duration::from_secs(40);
    let thread = loop {
        if let Some((thread, _)) = d.fake.thread_named(&name) {
            break thread;
        }
        assert!(Instant::now() < deadline, "no thread {name}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    for m in [&ANN, &BOB, &CAT, &EVE, &FAY] {
        d.press(m, &buttons, "tjoin").await;
    }
    d.command(&MOD, "tournament", sub("start", vec![])).await;
    // A player may not run the event: refused privately, nothing changes.
    for (cmd, options) in [("pause", vec![]), ("cancel", vec![]), ("resume", vec![])] {
        d.refused(&ANN, "tournament", sub(cmd, options), "Only the organiser")
            .await;
    }
    let from = d.fake.request_count();
    let ans = d.command(&MOD, "tournament", sub("pause", vec![])).await;
    assert!(ans.ephemeral && ans.content.contains("paused"), "{ans:?}");
    d.posted(from, Some(thread), "paused **Winter cup**").await;
    play_round(&d, id, 1).await;
    // Paused: round 1 is decided, round 2 waits.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert!(pairings(&d, id).await.iter().all(|p| p.round == 1));

    // The export: a TRF file after round 1, which pairs round 2.
    let ans = d.command(&CAT, "tournament", sub("export", vec![])).await;
    assert!(ans.ephemeral && ans.content.contains("TRF"), "{ans:?}");
    assert_eq!(ans.files.len(), 1, "{ans:?}");
    let trf = String::from_utf8(ans.files[0].clone()).expect("text");
    assert!(trf.starts_with("012 Winter cup\n"), "{trf}");
    let next =
        hexcord::pairings::pair(&hexcord::pairings::parse(&trf).expect("reads")).expect("pairs");

    let from = d.fake.request_count();
    let ans = d.command(&MOD, "tournament", sub("resume", vec![])).await;
    assert!(ans.ephemeral && ans.content.contains("goes on"), "{ans:?}");
    d.posted(from, Some(thread), "round 2 of 3").await;
    let all = pairings(&d, id).await;
    let pool = db::connect(&d.db_url).await.expect("db");
    let players = db::tournament_players(&pool, id).await.expect("players");
    pool.close().await;
    let seed = |u: UserId| players.iter().position(|p| p.player_id == u).expect("seed") as u32 + 1;
    let round2: Vec<(u32, u32)> = all
        .iter()
        .filter(|p| p.round == 2)
        .filter_map(|p| Some((seed(p.white_id), seed(p.black_id?))))
        .collect();
    let bye = all
        .iter()
        .find(|p| p.round == 2 && p.black_id.is_none())
        .map(|p| seed(p.white_id));
    let exported: Vec<(u32, u32)> = next.games.iter().map(|g| (g.white, g.black)).collect();
    assert_eq!((round2, bye), (exported, next.bye), "{trf}");

    // A correction of round 1 after round 2 is paired: the answer says its pairings stay.
    let game = all
        .iter()
        .find(|p| p.round == 1 && p.game_id.is_some())
        .and_then(|p| p.game_id)
        .expect("a game");
    let from = d.fake.request_count();
    let ans = d
        .command(
            &MOD,
            "tournament",
            sub("correct", vec![int("game", game), int("result", 2)]),
        )
        .await;
    assert!(
        ans.ephemeral && ans.content.contains("stay as they are"),
        "{ans:?}"
    );
    d.posted(from, Some(thread), "corrected the result of game")
        .await;
    let corrected = pairings(&d, id)
        .await
        .into_iter()
        .find(|p| p.game_id == Some(game))
        .expect("the game");
    assert_eq!(corrected.result, Some(db::PairingResult::Draw));

    // A member who leaves the server is withdrawn; one removed by the organiser too.
    let round2: Vec<PairingRow> = all.into_iter().filter(|p| p.round == 2).collect();
    let leaver = round2.iter().find_map(|p| p.black_id).expect("a game");
    let from = d.fake.request_count();
    let m = who(leaver);
    assert!(d.fake.dispatch(
        "GUILD_MEMBER_REMOVE",
        json!({
            "guild_id": crate::server::GUILD_ID.to_string(),
            "user": {"id": m.id.to_string(), "username": m.name, "discriminator": "0",
                     "global_name": null, "avatar": null},
        }),
    ));
    d.posted(from, Some(thread), "left the server and is withdrawn")
        .await;
    let removed = round2
        .iter()
        .map(|p| p.white_id)
        .find(|&u| u != leaver)
        .expect("another player");
    let r = who(removed);
    let from = d.fake.request_count();
    let ans = d
        .command_with(
            &MOD,
            "tournament",
            sub(
                "remove",
                vec![json!({"name": "player", "type": 6, "value": r.id.to_string()})],
            ),
            &[r],
        )
        .await;
    assert!(
        ans.ephemeral && ans.content.contains("withdrawn"),
        "{ans:?}"
    );
    d.posted(from, Some(thread), "is removed from **Winter cup**")
        .await;
    let pool = db::connect(&d.db_url).await.expect("db");
    let players = db::tournament_players(&pool, id).await.expect("players");
    pool.close().await;
    for u in [leaver, removed] {
        assert!(
            players
                .iter()
                .any(|p| p.player_id == u && p.withdrawn_round == Some(2)),
            "{players:?}"
        );
    }

    // Called off: the event is over, nobody wins.
    let from = d.fake.request_count();
    let ans = d.command(&MOD, "tournament", sub("cancel", vec![])).await;
    assert!(
        ans.ephemeral && ans.content.contains("called off"),
        "{ans:?}"
    );
    d.posted(from, Some(thread), "is called off by").await;
    assert_eq!(status(&d, id).await, (TournamentStatus::Cancelled, None));
    d.end(&mut bot, "tournament_organisers", started).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swiss_of_five_with_a_late_join_and_a_withdrawal_sqlite() {
    swiss_of_five(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swiss_of_five_with_a_late_join_and_a_withdrawal_postgres() {
    swiss_of_five(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn double_round_robin_of_four_sqlite() {
    double_round_robin_of_four(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn double_round_robin_of_four_postgres() {
    double_round_robin_of_four(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn organisers_pause_correct_remove_and_cancel_and_the_export_pairs_round_two_sqlite() {
    organisers_run_an_event_and_export_it(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn organisers_pause_correct_remove_and_cancel_and_the_export_pairs_round_two_postgres() {
    organisers_run_an_event_and_export_it(true).await;
}
