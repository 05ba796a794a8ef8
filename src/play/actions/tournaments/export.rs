//! `/tournament export`: the event as a FIDE TRF file ([`crate::pairings::Tournament::to_trf`]
//! writes it), which `hexcord pairings` and other pairing programs read.
//!
//! The file (TRF-2026) holds the event's name, kind and tie-breaks (`012`, `092`, `202` by
//! FIDE's codes), the rounds decided so far (a round still being played is left out: its games
//! have no result yet), each player by seed with their display name, the number of rounds
//! (`142`) and the initial colour (`152 W`). Players who withdrew before the next round are marked absent from it, so that
//! `hexcord pairings` on the file makes the next round's pairing as the bot does (or did).

use super::*;

/// A tournament as a TRF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Export {
    /// The file's name: `tournament-<id>.trf`.
    pub file_name: String,
    pub trf: String,
    /// The rounds it holds (every one decided).
    pub rounds: i64,
    /// The answer that comes with it.
    pub text: Text,
}

/// Tournament `id` of server `guild` as a TRF file, after its rounds decided so far.
pub async fn export_tournament(
    core: &Core,
    id: i64,
    guild: Option<GuildId>,
) -> Result<Export, Error> {
    let t = fetch(&core.pool, id).await?;
    if guild != Some(t.guild_id) {
        return Err(Error::refused(text!("tournament-other-server", id = id)));
    }
    if t.status == TournamentStatus::Signup {
        return Err(Error::refused(text!(
            "tournament-export-not-started",
            name = t.name.clone()
        )));
    }
    let players = db::tournament_players(&core.pool, id).await?;
    let pairings = db::tournament_pairings(&core.pool, id).await?;
    let rounds = decided_rounds(&t, &pairings);
    let mut conn = core.pool.acquire().await?;
    let lang = crate::play::server_lang(&mut *conn, Some(t.guild_id)).await?;
    let names = names_of(&mut conn, &players, lang).await?;
    drop(conn);
    let mut event = pairing_input(&t, &players, &pairings, rounds);
    let tiebreaks: Vec<&str> = t
        .format
        .ranking()
        .rules
        .tiebreaks
        .iter()
        .map(|b| b.fide_code())
        .collect();
    for (e, name) in event.entrants.iter_mut().zip(names) {
        e.name = name;
    }
    Ok(Export {
        file_name: format!("tournament-{id}.trf"),
        trf: event.to_trf_headed(&crate::pairings::trf::Heading {
            name: &t.name,
            kind: t.format.trf_kind(),
            // The standings' tie-breaks, by FIDE's codes.
            tiebreaks: &tiebreaks,
        }),
        rounds,
        text: text!(
            "tournament-exported",
            name = t.name.clone(),
            rounds = rounds
        ),
    })
}

/// The last round of event `t` whose every pairing is decided (0 before any).
pub(super) fn decided_rounds(t: &TournamentRow, pairings: &[PairingRow]) -> i64 {
    (1..=t.rounds_paired)
        .take_while(|&r| {
            pairings
                .iter()
                .filter(|p| p.round == r)
                .all(|p| p.result.is_some())
        })
        .last()
        .unwrap_or(0)
}
