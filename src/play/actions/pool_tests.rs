//! Seeks across servers on a real database (SQLite and PostgreSQL): matched only between
//! members who both let theirs be, a server's own seeks first, never with a member either one
//! blocks, never from a server its moderators keep out; such a game is played outside servers,
//! in the two members' direct messages, and names nobody of one server to the other. Two
//! processes matching one seek at once start one game.

use super::*;

use crate::clock::Clock;
use crate::db::testing::both_backends;
use crate::db::{self, ChannelId, GuildId, MessageId, SeekStatus, UserId};
use crate::games::Options;
use crate::i18n::Lang;
use crate::play::schedule::DAY;
use crate::play::{Error, Refusal};

const T0: i64 = 1_800_000_000;
const ANN: UserId = UserId(31);
const BOB: UserId = UserId(u64::MAX - 32);
const CAT: UserId = UserId(33);
const DAN: UserId = UserId(34);
const HOME: GuildId = GuildId(80);
const AWAY: GuildId = GuildId(u64::MAX - 81);

fn request(guild: GuildId, player: UserId, anywhere: bool) -> SeekRequest {
    SeekRequest {
        guild_id: guild,
        channel_id: ChannelId(guild.get() ^ 1),
        player,
        variants: vec![Options::parse_line("inphexion size=9").unwrap()],
        days: 1..=3,
        rated: true,
        lasts: DAY,
        standing: None,
        anywhere,
    }
}

fn refusal<T: std::fmt::Debug>(r: Result<T, Error>) -> String {
    match r {
        Err(Error::Refused(Refusal(t))) => t.render(Lang::EN),
        other => panic!("not a refusal: {other:?}"),
    }
}

async fn open(core: &Core, guild: GuildId, player: UserId, anywhere: bool) -> db::Seek {
    match seek(core, &request(guild, player, anywhere)).await.unwrap() {
        Sought::Open { seek, .. } => seek,
        other => panic!("matched: {other:?}"),
    }
}

/// The queued messages whose body holds `words`, by target.
async fn queued(core: &Core, words: &str) -> Vec<db::Target> {
    let bodies: Vec<String> =
        sqlx::query_scalar("SELECT body FROM announcements WHERE body LIKE $1 ORDER BY id")
            .bind(format!("%{words}%"))
            .fetch_all(&core.pool)
            .await
            .unwrap();
    bodies
        .iter()
        .map(|b| serde_json::from_str::<db::Announcement>(b).unwrap().target)
        .collect()
}

both_backends! {
    async fn seeks_are_matched_across_servers_only_between_members_who_let_them(pool) {
        for (id, name) in [(ANN, "ann"), (BOB, "bob"), (CAT, "cat"), (DAN, "dan")] {
            db::upsert_player(&pool, id, name, T0).await.unwrap();
            db::note_reachable(&pool, id).await.unwrap();
        }
        let (clock, _) = Clock::fixed(T0);
        let core = Core::new(pool, clock);

        // Ann lets hers be matched anywhere; nobody seeks: it waits, its card says so.
        let anns = open(&core, HOME, ANN, true).await;
        assert!(anns.anywhere);
        assert!(seek_card(&anns, None).render(Lang::EN).contains("another server"));
        db::set_seek_message(&core.pool, anns.id, anns.channel_id, MessageId(900)).await.unwrap();

        // Bob, in another server, does not: not matched with Ann's.
        let bobs = open(&core, AWAY, BOB, false).await;
        assert!(!bobs.anywhere);

        // Cat's server keeps out: her seek across servers is refused, nothing stored.
        db::set_pool_closed(&core.pool, AWAY, true, T0).await.unwrap();
        let why = refusal(seek(&core, &request(AWAY, CAT, true)).await);
        assert!(why.contains("keep it out"), "{why}");
        assert!(db::open_seeks(&core.pool, db::SeeksOf::Player(CAT), T0).await.unwrap().is_empty());
        // Nor is Ann's matched from there by a seek made before the server left.
        assert!(db::open_seeks_anywhere(&core.pool, AWAY, T0).await.unwrap().is_empty());
        db::set_pool_closed(&core.pool, AWAY, false, T0).await.unwrap();

        // Allowed, Cat's seek is matched with Bob's first: a game in their own server.
        let Sought::Matched { game, .. } = seek(&core, &request(AWAY, CAT, true)).await.unwrap() else {
            panic!("Cat's seek waits")
        };
        let row = db::fetch_game(&core.pool, game).await.unwrap().unwrap();
        assert_eq!((row.guild_id, row.players), (Some(AWAY), [BOB, CAT]));

        // Ann blocks Dan: his seek is not matched with hers, nor may he take hers.
        assert!(matches!(
            block(&core, ANN, DAN, UserId(1), false).await.unwrap(),
            Blocked::Blocked(true)
        ));
        let dans = open(&core, AWAY, DAN, true).await;
        let why = refusal(accept_seek(&core, anns.id, DAN, 0, true).await);
        assert!(why.contains("blocks the other"), "{why}");
        withdraw_seek(&core, dans.id, DAN).await.unwrap();
        assert!(refusal(block(&core, ANN, ANN, UserId(1), false).await).contains("yourself"));
        assert!(matches!(
            block(&core, ANN, DAN, UserId(1), true).await.unwrap(),
            Blocked::Unblocked(true)
        ));

        // Unblocked, Dan's seek is matched with Ann's across servers.
        let Sought::Matched { game, text } = seek(&core, &request(AWAY, DAN, true)).await.unwrap() else {
            panic!("Dan's seek waits")
        };
        let said = text.render(Lang::EN);
        assert!(said.contains("another server") && !said.contains(&ANN.to_string()), "{said}");
        assert!(said.contains("your direct messages"), "{said}");
        let row = db::fetch_game(&core.pool, game).await.unwrap().unwrap();
        assert_eq!(row.guild_id, None);
        assert_eq!(row.channel_id, crate::play::seats::IN_DIRECT);
        assert_eq!(row.players, [ANN, DAN], "Ann waited: she moves first");
        assert!(crate::play::chats::is_chat_game(&row));
        assert_eq!(crate::play::chats::rating_pool(&row), Some(crate::play::chats::RATINGS));
        let s = db::fetch_seek(&core.pool, anns.id).await.unwrap().unwrap();
        assert_eq!((s.status, s.game_id), (SeekStatus::Matched, Some(game)));

        // Both are told by direct message, by name; Ann's card in her server names nobody of
        // Dan's.
        let told = queued(&core, "matched across servers").await;
        assert_eq!(told.len(), 2, "{told:?}");
        for who in [ANN, DAN] {
            assert!(
                told.iter().any(|t| matches!(t, db::Target::Direct { user, or_channel: None } if *user == who)),
                "{told:?}"
            );
        }
        assert_eq!(queued(&core, "against **dan**").await.len(), 1);
        assert_eq!(queued(&core, "against **ann**").await.len(), 1);
        let edits = queued(&core, "matched with a player of another server").await;
        assert!(
            matches!(edits[..], [db::Target::Edit { message: MessageId(900), .. }]),
            "{edits:?}"
        );
        // Dan is named in direct messages only (his notice, the board's caption), never in a
        // channel of Ann's server.
        let naming_dan = queued(&core, &format!("<@{DAN}>")).await;
        assert!(!naming_dan.is_empty());
        assert!(
            naming_dan.iter().all(|t| matches!(t, db::Target::Direct { .. })),
            "{naming_dan:?}"
        );
        // Ann, to move, gets the board by direct message, as every game outside servers.
        let boards: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM announcements WHERE game_id = $1 AND body LIKE '%\"board\":{%'",
        )
        .bind(game)
        .fetch_one(&core.pool)
        .await
        .unwrap();
        assert_eq!(boards, 1);
    }
}

/// Two members of another server, each handled by its own process (its own pool), seek across
/// servers at the same moment while Ann's seek waits: one of them is matched with hers, one
/// game; the other's seek waits. Then two presses of Accept on one seek at once: one game, the
/// other told who took it.
async fn two_processes_match_one_seek(first: db::Pool, second: db::Pool) {
    for (id, name) in [(ANN, "ann"), (BOB, "bob"), (CAT, "cat"), (DAN, "dan")] {
        db::upsert_player(&first, id, name, T0).await.unwrap();
    }
    let one = Core::new(first, Clock::fixed(T0).0);
    let two = Core::new(second, Clock::fixed(T0).0);
    let games = |core: &Core| {
        let pool = core.pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>("SELECT count(*) FROM games")
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    for round in 0..4_i64 {
        let anns = open(&one, HOME, ANN, true).await;
        let go = |core: &Core, who: UserId| {
            let core = core.clone();
            tokio::spawn(async move { seek(&core, &request(AWAY, who, true)).await })
        };
        let (bob, cat) = (go(&one, BOB), go(&two, CAT));
        let results = [bob.await.unwrap().unwrap(), cat.await.unwrap().unwrap()];
        let matched: Vec<i64> = results
            .iter()
            .filter_map(|r| match r {
                Sought::Matched { game, .. } => Some(*game),
                Sought::Open { .. } => None,
            })
            .collect();
        // The one left over is matched with nothing, or with the other's seek if it was
        // stored first: never a second game with Ann.
        let with_ann = {
            let mut n = 0;
            for g in &matched {
                let row = db::fetch_game(&one.pool, *g).await.unwrap().unwrap();
                n += i64::from(row.players.contains(&ANN));
            }
            n
        };
        assert_eq!(with_ann, 1, "round {round}: {results:?}");
        let s = db::fetch_seek(&one.pool, anns.id).await.unwrap().unwrap();
        assert_eq!(s.status, SeekStatus::Matched, "round {round}");
        for who in [BOB, CAT] {
            for s in db::open_seeks(&one.pool, db::SeeksOf::Player(who), T0)
                .await
                .unwrap()
            {
                withdraw_seek(&one, s.id, who).await.unwrap();
            }
        }
    }
    let before = games(&one).await;
    // Two presses of Accept at once on Ann's seek, from two processes: one game.
    let anns = open(&one, HOME, ANN, true).await;
    let press = |core: &Core, who: UserId| {
        let core = core.clone();
        tokio::spawn(async move { accept_seek(&core, anns.id, who, 0, true).await })
    };
    let (cat, dan) = (press(&one, CAT), press(&two, DAN));
    let results = [cat.await.unwrap(), dan.await.unwrap()];
    assert_eq!(
        results.iter().filter(|r| r.is_ok()).count(),
        1,
        "{results:?}"
    );
    let why = results
        .into_iter()
        .find_map(|r| r.err())
        .map(|e| refusal::<()>(Err(e)))
        .unwrap_or_default();
    assert!(why.contains("took this seek first"), "{why}");
    assert_eq!(games(&one).await, before + 1);
}

#[tokio::test]
async fn two_processes_matching_one_seek_start_one_game_on_sqlite() {
    let (first, file) = db::testing::temp_db().await;
    let second = db::connect(&format!("sqlite://{}", file.0.display()))
        .await
        .unwrap();
    two_processes_match_one_seek(first, second).await;
}

#[tokio::test]
async fn two_processes_matching_one_seek_start_one_game_on_postgres() {
    let (first, url) = db::testing::pg_db().await;
    let second = db::connect(&url).await.unwrap();
    two_processes_match_one_seek(first, second).await;
}
