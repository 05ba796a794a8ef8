//! Seeks across servers on a real database (SQLite and PostgreSQL): matched only between
//! members who both let theirs be, a server's own seeks first, never with a member either one
//! blocks, never from a server its moderators keep out; such a game is played outside servers,
//! in the two members' direct messages, and names nobody of one server to the other.

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
