//! The lobby: the open seeks and open challenges of every server a member was seen in
//! ([`db::servers_of_member`]: a command or a button press there records it, leaving it forgets
//! it), as the web board's inbox shows them, each accepted through the same action as its card's
//! button in Discord ([`actions::accept_seek`], [`actions::accept_off_card`]). The game then
//! starts where the card is, and the card's edit is queued. Nothing of a server is shown to a
//! member not seen in it, and accepting there is refused.

use super::actions::{self, Core};
use super::terms::rating_range;
use super::Error;
use crate::db::{self, Challenge, GuildId, Seek, UserId};
use crate::i18n::{Lang, Text};
use crate::text;
use crate::time_control::TimeControl;

/// An open seek or challenge as the lobby lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Offer {
    pub what: Offered,
    /// The server's name (as Discord last gave it).
    pub server: String,
    /// Its author's name.
    pub author: String,
    /// Its author is the member reading: nothing to accept.
    pub mine: bool,
    /// Its terms in words.
    pub words: String,
    /// One Accept per variant (a challenge has one), labelled.
    pub choices: Vec<String>,
    /// When it closes (Unix seconds).
    pub expires_at: i64,
}

/// Which offer, and what accepting it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offered {
    Seek(i64),
    Challenge(i64),
}

/// The open seeks and challenges of `user`'s servers in `lang`: each server's seeks, then its
/// challenges, oldest first.
pub async fn offers(core: &Core, user: UserId, lang: Lang) -> Result<Vec<Offer>, Error> {
    let pool = &core.pool;
    let now = core.clock.now();
    let mut offers = Vec::new();
    for (guild, name) in db::servers_of_member(pool, user).await? {
        let server = server_words(name).render(lang);
        for s in db::open_seeks(pool, db::SeeksOf::Server(guild), now).await? {
            offers.push(seek_offer(core, &s, user, lang, &server).await?);
        }
        for c in db::open_challenges_to_all(pool, guild, now).await? {
            offers.push(challenge_offer(core, &c, user, lang, &server).await?);
        }
    }
    Ok(offers)
}

/// A server's name as the texts show it: its own (as Discord last gave it), or
/// `lobby-server-unknown`.
fn server_words(name: Option<String>) -> Text {
    match name {
        Some(name) if !name.trim().is_empty() => Text::raw(name),
        _ => text!("lobby-server-unknown"),
    }
}

async fn author_name(core: &Core, lang: Lang, id: UserId) -> Result<String, Error> {
    let name = db::fetch_name(&core.pool, id).await?;
    Ok(super::words::name_in(lang, name, || format!("#{id}")))
}

async fn seek_offer(
    core: &Core,
    s: &Seek,
    user: UserId,
    lang: Lang,
    server: &str,
) -> Result<Offer, Error> {
    let author = author_name(core, lang, s.player_id).await?;
    let words = text!(
        "lobby-seek",
        author = author.clone(),
        variants = actions::variants_text(&s.variants),
        rated = if s.rated { "yes" } else { "no" },
        days = actions::days_text(&s.days)
    )
    .render(lang);
    let choices = s
        .variants
        .iter()
        .map(|v| text!("button-accept-seek", variant = super::words::variant(v)).render(lang))
        .collect();
    Ok(Offer {
        what: Offered::Seek(s.id),
        server: server.to_string(),
        author,
        mine: s.player_id == user,
        words,
        choices,
        expires_at: s.expires_at,
    })
}

async fn challenge_offer(
    core: &Core,
    c: &Challenge,
    user: UserId,
    lang: Lang,
    server: &str,
) -> Result<Offer, Error> {
    let author = author_name(core, lang, c.challenger_id).await?;
    let control = c.time_control.unwrap_or(TimeControl::PerMove {
        seconds: c.seconds_per_move,
    });
    let words = text!(
        "lobby-challenge",
        author = author.clone(),
        options = super::words::variant(&c.options),
        rated = if c.rated { "yes" } else { "no" },
        clock = super::words::time_control(control, c.weekends_off),
        ranged = if c.ratings.is_any() { "no" } else { "yes" },
        range = rating_range(c.ratings),
        game = c.options.kind().title()
    )
    .render(lang);
    Ok(Offer {
        what: Offered::Challenge(c.id),
        server: server.to_string(),
        author,
        mine: c.challenger_id == user,
        words,
        choices: vec![text!("button-accept").render(lang)],
        expires_at: c.expires_at,
    })
}

/// `user` accepts `what` in the lobby (variant `variant` of a seek): refused when they were not
/// seen in its server, otherwise as its card's button would. Returns the game started and what
/// to tell them.
pub async fn accept(
    core: &Core,
    user: UserId,
    what: Offered,
    variant: usize,
) -> Result<(i64, Text), Error> {
    let pool = &core.pool;
    let guild = match what {
        Offered::Seek(id) => db::fetch_seek(pool, id)
            .await?
            .map(|s| s.guild_id)
            .ok_or_else(|| Error::refused(text!("seek-gone")))?,
        Offered::Challenge(id) => db::fetch_challenge(pool, id)
            .await?
            .and_then(|c| c.guild_id.filter(|_| c.opponent_id.is_none()))
            .ok_or_else(|| Error::refused(text!("challenge-gone", id = id)))?,
    };
    check_member(core, guild, user).await?;
    let (game, _) = match what {
        Offered::Seek(id) => actions::accept_seek(core, id, user, variant, false).await?,
        Offered::Challenge(id) => actions::accept_off_card(core, id, user).await?,
    };
    let row = db::fetch_game(pool, game)
        .await?
        .ok_or_else(|| anyhow::anyhow!("game {game} vanished once started"))?;
    let server = server_words(db::server_name(pool, guild).await?);
    Ok((
        game,
        text!(
            "lobby-started",
            game = game,
            options = super::words::variant(&row.options),
            server = server
        ),
    ))
}

/// Refuses `user` in server `guild` unless they were seen there.
async fn check_member(core: &Core, guild: GuildId, user: UserId) -> Result<(), Error> {
    if db::is_server_member(&core.pool, guild, user).await? {
        return Ok(());
    }
    let server = server_words(db::server_name(&core.pool, guild).await?);
    Err(Error::refused(text!("lobby-not-member", server = server)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Clock;
    use crate::db::testing::both_backends;
    use crate::db::{ChannelId, MessageId, RatingRange, SeekStatus};
    use crate::games::Options;
    use crate::play::actions::{OpenChallengeRequest, SeekRequest, Sought};
    use crate::play::schedule::DAY;
    use crate::play::Refusal;

    const T0: i64 = 1_800_000_000;
    const ANN: UserId = UserId(21);
    const BOB: UserId = UserId(22);
    const CAT: UserId = UserId(23);
    const HOME: GuildId = GuildId(70);
    const AWAY: GuildId = GuildId(71);

    fn refusal<T: std::fmt::Debug>(r: Result<T, Error>) -> String {
        match r {
            Err(Error::Refused(Refusal(t))) => t.render(Lang::EN),
            other => panic!("not a refusal: {other:?}"),
        }
    }

    async fn seek_in(core: &Core, guild: GuildId, player: UserId) -> db::Seek {
        let req = SeekRequest {
            guild_id: guild,
            channel_id: ChannelId(80),
            player,
            variants: vec![
                Options::parse_line("inphexion size=7").unwrap(),
                Options::parse_line("inphexion size=9").unwrap(),
            ],
            days: 1..=3,
            rated: true,
            lasts: DAY,
            standing: None,
            anywhere: false,
        };
        match actions::seek(core, &req).await.unwrap() {
            Sought::Open { seek, .. } => seek,
            other => panic!("matched: {other:?}"),
        }
    }

    async fn pending_edits(core: &Core, words: &str) -> i64 {
        sqlx::query_scalar("SELECT count(*) FROM announcements WHERE body LIKE $1")
            .bind(format!("%{words}%"))
            .fetch_one(&core.pool)
            .await
            .unwrap()
    }

    both_backends! {
        /// The lobby lists the open seeks and challenges of the servers a member was seen in,
        /// theirs marked; accepting one starts its game where its card is and queues the card's
        /// edit; a server the member was not seen in is neither shown nor accepted in, and a
        /// refusal changes nothing.
        async fn the_lobby_shows_and_accepts_the_offers_of_a_member_s_servers(pool) {
            for (id, name) in [(ANN, "ann"), (BOB, "bob"), (CAT, "cat")] {
                db::upsert_player(&pool, id, name, T0).await.unwrap();
            }
            let (clock, _) = Clock::fixed(T0);
            let core = Core::new(pool, clock);
            db::note_server_name(&core.pool, HOME, "Hex Club", T0).await.unwrap();
            for user in [ANN, BOB] {
                db::note_server_member(&core.pool, HOME, user, T0).await.unwrap();
                // Seen again: still one row.
                db::note_server_member(&core.pool, HOME, user, T0 + 5).await.unwrap();
            }
            db::note_server_member(&core.pool, AWAY, CAT, T0).await.unwrap();

            let seek = seek_in(&core, HOME, ANN).await;
            db::set_seek_message(&core.pool, seek.id, ChannelId(80), MessageId(900))
                .await
                .unwrap();
            let elsewhere = seek_in(&core, AWAY, CAT).await;
            let open = actions::open_challenge_to_all(
                &core,
                &OpenChallengeRequest {
                    guild_id: HOME,
                    channel_id: ChannelId(81),
                    challenger: ANN,
                    options: Options::parse_line("exxit tiles=39").unwrap(),
                    rated: false,
                    seconds_per_move: DAY,
                    time_control: None,
                    weekends_off: None,
                    ratings: RatingRange::ANY,
                    lasts: DAY,
                },
            )
            .await
            .unwrap();
            db::set_challenge_message(&core.pool, open.id, MessageId(901))
                .await
                .unwrap();

            let bobs = offers(&core, BOB, Lang::EN).await.unwrap();
            let what: Vec<Offered> = bobs.iter().map(|o| o.what).collect();
            assert_eq!(what, [Offered::Seek(seek.id), Offered::Challenge(open.id)]);
            assert_eq!(bobs[0].server, "Hex Club");
            assert_eq!(bobs[0].author, "ann");
            assert!(!bobs[0].mine);
            assert_eq!(
                bobs[0].words,
                "ann seeks inpHeXion 7×7 or inpHeXion 9×9, rated, 1–3 days a move."
            );
            assert_eq!(
                bobs[0].choices,
                ["Accept: inpHeXion 7×7", "Accept: inpHeXion 9×9"]
            );
            assert_eq!(bobs[0].expires_at, T0 + DAY);
            assert!(bobs[1].words.starts_with("ann is looking for an opponent: EXXIT"), "{:?}", bobs[1]);
            assert_eq!(bobs[1].choices, ["Accept"]);
            // Ann sees hers, marked; Cat sees only her own server's.
            assert!(offers(&core, ANN, Lang::EN).await.unwrap().iter().all(|o| o.mine));
            let cats = offers(&core, CAT, Lang::EN).await.unwrap();
            assert_eq!(cats.len(), 1);
            assert_eq!(cats[0].what, Offered::Seek(elsewhere.id));
            assert_eq!(cats[0].server, "a server", "a server whose name is unknown");

            // Not seen in the server: refused, nothing taken.
            let why = refusal(accept(&core, CAT, Offered::Seek(seek.id), 1).await);
            assert!(why.contains("not known as a member of Hex Club"), "{why}");
            let why = refusal(accept(&core, BOB, Offered::Seek(elsewhere.id), 0).await);
            assert!(why.contains("a member of a server"), "{why}");
            // One's own: refused as on the card.
            let why = refusal(accept(&core, ANN, Offered::Seek(seek.id), 0).await);
            assert!(why.contains("your own seek"), "{why}");
            let stored = db::fetch_seek(&core.pool, seek.id).await.unwrap().unwrap();
            assert_eq!(stored.status, SeekStatus::Open);

            // Bob takes the 9×9: the game is Ann's (she waited, she moves first), played where
            // the card is, and the card's edit is queued.
            let (game, said) = accept(&core, BOB, Offered::Seek(seek.id), 1).await.unwrap();
            let said = said.render(Lang::EN);
            assert!(said.contains(&format!("Game #{game} (inpHeXion 9×9) starts in Hex Club")), "{said}");
            let row = db::fetch_game(&core.pool, game).await.unwrap().unwrap();
            assert_eq!(row.players, [ANN, BOB]);
            assert_eq!(row.channel_id, ChannelId(80));
            assert_eq!(pending_edits(&core, "matched the seek of").await, 1);
            // Taken: a second accept is told who took it.
            let why = refusal(accept(&core, BOB, Offered::Seek(seek.id), 0).await);
            assert!(why.contains("took this seek first"), "{why}");

            // The open challenge: accepted from the lobby, its card's edit queued.
            let (second, _) = accept(&core, BOB, Offered::Challenge(open.id), 0).await.unwrap();
            let row = db::fetch_game(&core.pool, second).await.unwrap().unwrap();
            assert_eq!(row.players, [ANN, BOB]);
            assert_eq!(pending_edits(&core, "accepted the open challenge of").await, 1);
            assert!(offers(&core, BOB, Lang::EN).await.unwrap().is_empty());

            // A member who left is forgotten: nothing shown.
            db::forget_server_member(&core.pool, AWAY, CAT).await.unwrap();
            assert!(offers(&core, CAT, Lang::EN).await.unwrap().is_empty());
        }
    }
}
