//! An event's standings after a round: the table, in words and as the picture's view.

use super::*;

/// The standings of event `t` after `round` rounds by its format's ranking, best first.
pub fn table_of(
    t: &TournamentRow,
    players: &[TournamentPlayer],
    pairings: &[PairingRow],
    round: i64,
) -> Vec<Standing> {
    let index: HashMap<UserId, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.player_id, i))
        .collect();
    let entrants: Vec<standings::Entrant> = players
        .iter()
        .map(|p| {
            standings::Entrant::new(
                (1..=round)
                    .map(|r| match pairing_in(pairings, r, p.player_id) {
                        None => Round::Absent,
                        Some(x) => standings_round(x, p.player_id, &index),
                    })
                    .collect(),
            )
        })
        .collect();
    standings::standings(&t.format.ranking().rules, &entrants)
}

fn standings_round(x: &PairingRow, p: UserId, index: &HashMap<UserId, usize>) -> Round {
    let Some(black) = x.black_id else {
        return Round::Bye {
            halves: x.bye_halves.unwrap_or(0).clamp(0, 2) as u32,
        };
    };
    let white = x.white_id == p;
    let Some(&opponent) = index.get(if white { &black } else { &x.white_id }) else {
        return Round::Absent;
    };
    let mine = |side_white: bool| side_white == white;
    match x.result {
        Some(PairingResult::White) if mine(true) => Round::Won { opponent },
        Some(PairingResult::Black) if mine(false) => Round::Won { opponent },
        Some(PairingResult::White | PairingResult::Black) => Round::Lost { opponent },
        Some(PairingResult::Draw) => Round::Drawn { opponent },
        Some(PairingResult::WhiteForfeit) if mine(true) => Round::ForfeitWon { opponent },
        Some(PairingResult::BlackForfeit) if mine(false) => Round::ForfeitWon { opponent },
        Some(PairingResult::WhiteForfeit | PairingResult::BlackForfeit) => {
            Round::ForfeitLost { opponent }
        }
        Some(PairingResult::Void | PairingResult::Bye) | None => Round::Absent,
    }
}

/// The players' names, by seed, in `lang` (where a name is "a former member").
pub(super) async fn names_of(
    tx: &mut Conn,
    players: &[TournamentPlayer],
    lang: Lang,
) -> Result<Vec<String>, Error> {
    let mut names = Vec::with_capacity(players.len());
    for p in players {
        let name = db::fetch_name(&mut *tx, p.player_id).await?;
        names.push(crate::play::words::name_in(lang, name, || "?".to_string()));
    }
    Ok(names)
}

/// The standings after `round` rounds as text: a title, then one line a player.
pub(super) async fn standings_text(
    tx: &mut Conn,
    t: &TournamentRow,
    players: &[TournamentPlayer],
    pairings: &[PairingRow],
    lang: Lang,
    round: i64,
) -> Result<Text, Error> {
    let table = table_of(t, players, pairings, round);
    let names = names_of(tx, players, lang).await?;
    Ok(standings_words(t, players, &names, &table, round))
}

/// The standings `table` of `t` after `round` rounds in words.
fn standings_words(
    t: &TournamentRow,
    players: &[TournamentPlayer],
    names: &[String],
    table: &[Standing],
    round: i64,
) -> Text {
    let ranking = t.format.ranking();
    let mut lines = Vec::new();
    for s in table {
        let (Some(p), Some(name)) = (players.get(s.player), names.get(s.player)) else {
            continue;
        };
        let name = match p.withdrawn_round {
            Some(_) => text!("tournament-withdrawn-name", name = name.clone()),
            None => Text::raw(name.clone()),
        };
        let mut line = Text::new(ranking.line)
            .with("rank", s.rank as i64)
            .with("name", name)
            .with("points", s.points.to_string())
            .with("games", s.games as i64);
        for tiebreak in ranking.rules.tiebreaks {
            let (variable, value) = tiebreak.argument(s);
            line = line.with(variable, value);
        }
        lines.push(line);
    }
    let mut list = Text::raw(String::new());
    for (i, line) in lines.into_iter().enumerate() {
        list = if i == 0 {
            line
        } else {
            text!("tournament-line-break", before = list, after = line)
        };
    }
    text!(
        "tournament-standings",
        name = t.name.clone(),
        round = round,
        lines = list
    )
}

/// A tournament's standings as they stand (the rounds decided so far), for
/// `/tournament standings`: the table, the names by seed, and the same in words.
#[derive(Clone, Debug)]
pub struct StandingsView {
    pub tournament: TournamentRow,
    /// The last round whose every pairing is decided (0 before any).
    pub round: i64,
    /// The event's format (`tournament.format`), whose ranking the table follows.
    pub format: TournamentFormat,
    pub table: Vec<Standing>,
    /// The players' names by seed (the table's `player` indexes them).
    pub names: Vec<String>,
    /// By seed: withdrawn or removed.
    pub withdrawn: Vec<bool>,
    pub text: Text,
}

/// By seed: who withdrew or was removed.
fn withdrawn_of(players: &[TournamentPlayer]) -> Vec<bool> {
    players
        .iter()
        .map(|p| p.withdrawn_round.is_some())
        .collect()
}

/// The standings of tournament `id` of server `guild` as they stand.
pub async fn show_standings(
    core: &Core,
    id: i64,
    guild: Option<GuildId>,
) -> Result<StandingsView, Error> {
    let t = fetch(&core.pool, id).await?;
    if guild != Some(t.guild_id) {
        return Err(Error::refused(text!("tournament-other-server", id = id)));
    }
    let pairings = db::tournament_pairings(&core.pool, id).await?;
    let round = decided_rounds(&t, &pairings);
    let lang = crate::play::server_lang(&core.pool, Some(t.guild_id)).await?;
    let (mut view, players, _) = view_of(&core.pool, t, pairings, round, lang).await?;
    if view.tournament.status == TournamentStatus::Signup {
        view.text = card(&view.tournament, players.len() as i64);
    }
    Ok(view)
}

/// Event `t`'s standings after `round` rounds with its `pairings`, names in `lang`; its players
/// and pairings beside them.
async fn view_of(
    pool: &crate::db::Pool,
    t: TournamentRow,
    pairings: Vec<PairingRow>,
    round: i64,
    lang: Lang,
) -> Result<(StandingsView, Vec<TournamentPlayer>, Vec<PairingRow>), Error> {
    let players = db::tournament_players(pool, t.id).await?;
    let mut conn = pool.acquire().await?;
    let names = names_of(&mut conn, &players, lang).await?;
    drop(conn);
    let table = table_of(&t, &players, &pairings, round);
    let text = standings_words(&t, &players, &names, &table, round);
    let view = StandingsView {
        withdrawn: withdrawn_of(&players),
        format: t.format,
        tournament: t,
        round,
        table,
        names,
        text,
    };
    Ok((view, players, pairings))
}

/// The standings of tournament `id` after `round` rounds, for its picture.
pub async fn standings_after(
    pool: &crate::db::Pool,
    id: i64,
    round: i64,
) -> Result<StandingsView, Error> {
    let t = fetch(pool, id).await?;
    let pairings = db::tournament_pairings(pool, id).await?;
    let lang = crate::play::server_lang(pool, Some(t.guild_id)).await?;
    Ok(view_of(pool, t, pairings, round, lang).await?.0)
}

/// A tournament as it stands, for its web page: its standings (the same as
/// `/tournament standings`), and every player and pairing of every round.
#[derive(Clone, Debug)]
pub struct EventNow {
    pub standings: StandingsView,
    /// By seed, as the table's `player` and `standings.names` index them.
    pub players: Vec<TournamentPlayer>,
    pub pairings: Vec<PairingRow>,
}

/// Tournament `id` as it stands, whatever its server (its page is public), its names in `lang`;
/// refused when there is no such event.
pub async fn event_now(pool: &crate::db::Pool, id: i64, lang: Lang) -> Result<EventNow, Error> {
    let t = fetch(pool, id).await?;
    let pairings = db::tournament_pairings(pool, id).await?;
    let round = decided_rounds(&t, &pairings);
    let (standings, players, pairings) = view_of(pool, t, pairings, round, lang).await?;
    Ok(EventNow {
        standings,
        players,
        pairings,
    })
}
