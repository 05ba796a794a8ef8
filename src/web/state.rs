//! The JSON State of a game, as the page reads it: built from the stored game by the play
//! layer's words, in one language.
//!
//! The public state (no link) has `you: null` and no legal moves; a link's player sees their
//! seat, and, when it is their turn, every legal move with its notation, its words and its steps
//! ([`crate::play::picker::steps`]), each step with the cell it chooses (`"q,r"`, or `null` for
//! a button), from which the page builds its clicks without knowing the rules.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::db::{self, GameRow, GameStatus, Pool, UserId};
use crate::games::{Game, Options};
use crate::hex::Hex;
use crate::i18n::Lang;
use crate::play::access::{colour_of, player_to_move};
use crate::play::{picker, words, Error};
use crate::text;

/// A game as the page shows it (field by field as the page's contract says).
#[derive(Serialize, Clone, Debug)]
pub struct State {
    pub id: i64,
    pub kind: &'static str,
    pub variant: String,
    /// The game's version: its number of moves, which a move from the page must name.
    pub version: i64,
    /// One more at every change of the game (a move, a takeback, an ending, a pause, a
    /// vacation): the page keeps the state of the highest revision it has seen.
    pub revision: i64,
    pub lang: &'static str,
    pub players: Vec<Player>,
    pub to_move: Option<usize>,
    pub deadline: Option<String>,
    pub status: String,
    pub result: Option<String>,
    pub moves: Vec<MoveLine>,
    pub svg: String,
    pub you: Option<You>,
    pub legal: Vec<Legal>,
    pub texts: BTreeMap<String, String>,
    /// The stored computer analysis of a finished game (`/analysis`), as its chart shows it;
    /// `null` when it has none.
    pub analysis: Option<Chart>,
    /// The figure between the players in the picture's header, in words (EXXIT's tile supply);
    /// `null` for a game without one. With [`Player::holds`], what a page that leaves the
    /// header out (a narrow screen) shows beside the players.
    pub supply: Option<String>,
}

/// The analysis chart's numbers: the values the Discord chart draws and its answer states.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Chart {
    /// The first colour's chance (0–1) at each position from the start, as found.
    pub first_chance: Vec<f64>,
    /// The same, smoothed as the chart's line is drawn ([`crate::render::chart::smoothed`]).
    pub line: Vec<f64>,
    /// The turning points, the worst first.
    pub turning: Vec<Turning>,
}

/// A turning point on the page's chart.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Turning {
    /// The move's number: the position after it is `line[number]`.
    pub number: usize,
    /// 0 first colour, 1 second.
    pub mover: u8,
    /// The mover's chance before and after the move, as found.
    pub before: f64,
    pub after: f64,
    /// The point in words: the move as the analysis' answer says it, and the chances.
    pub label: String,
}

/// The chart of `analysis` of `game` in `lang` (none for one made before moves were taken back).
pub fn chart(lang: Lang, game: &Game, analysis: &crate::analysis::Analysis) -> Option<Chart> {
    if analysis.moves.len() != game.ply() || analysis.positions.len() != game.ply() + 1 {
        return None;
    }
    let kind = game.kind();
    let first_chance: Vec<f64> = analysis.positions.iter().map(|p| p.first_chance).collect();
    let turning = analysis
        .turning_points
        .iter()
        .filter_map(|&n| analysis.move_number(n))
        .map(|m| Turning {
            number: m.number,
            mover: m.mover.min(1),
            before: m.before,
            after: m.after,
            label: text!(
                "web-chart-turning",
                number = m.number,
                colour = words::colour(
                    kind,
                    crate::games::Colour::BOTH[usize::from(m.mover.min(1))]
                ),
                played = crate::analysis::move_in_words(lang, game, m.number, &m.played),
                before = crate::analysis::percent(m.before),
                after = crate::analysis::percent(m.after)
            )
            .render(lang),
        })
        .collect();
    Some(Chart {
        line: crate::render::chart::smoothed(&first_chance),
        first_chance,
        turning,
    })
}

/// The stored analysis of a finished game `row` as the page's chart: the one `/analysis` makes
/// (its default budget, seeded by the game's number).
async fn stored_chart(
    pool: &Pool,
    row: &GameRow,
    game: &Game,
    lang: Lang,
) -> Result<Option<Chart>, Error> {
    if row.status == GameStatus::Active || game.ply() == 0 {
        return Ok(None);
    }
    let budget = crate::analysis::AnalysisBudget::DEFAULT.for_kind(game.kind());
    let stored = db::fetch_analysis(pool, row.id, budget, row.id as u64).await?;
    Ok(stored.and_then(|a| chart(lang, game, &a)))
}

#[derive(Serialize, Clone, Debug)]
pub struct Player {
    pub name: String,
    pub colour: String,
    /// With a time control, the seconds this player's turn starts with (for the player to move,
    /// the page counts down to the deadline instead); `null` without one.
    pub bank: Option<i64>,
    /// What the player holds, as the picture's header says it: `12 in hand`,
    /// `hand 5 · score 3`.
    pub holds: String,
}

/// What the picture's header of `game`'s position says beside the players' names (`names` by
/// colour, the first colour's first): what each colour holds, by colour, and the figure between
/// them in words (EXXIT's tile supply). The page shows these where it leaves the header out.
pub fn header_words(lang: Lang, game: &Game, names: &[String; 2]) -> ([String; 2], Option<String>) {
    use crate::render::Draw as _;
    crate::games::on_game!(game.position(), Position(p), G => {
        let mut view = G::view(p, None, names);
        G::set_words(&mut view, lang, None, None);
        let header = view.header();
        let supply = header
            .centre
            .as_ref()
            .map(|(_, count)| text!("web-supply", count = count.clone()).render(lang));
        (header.stats.clone(), supply)
    })
}

#[derive(Serialize, Clone, Debug)]
pub struct MoveLine {
    pub ply: usize,
    pub notation: String,
    pub words: String,
}

#[derive(Serialize, Clone, Copy, Debug)]
pub struct You {
    pub seat: usize,
}

#[derive(Serialize, Clone, Debug)]
pub struct Legal {
    pub notation: String,
    pub words: String,
    pub steps: Vec<StepJson>,
}

#[derive(Serialize, Clone, Debug)]
pub struct StepJson {
    pub cell: Option<String>,
    pub key: String,
    pub label: String,
}

/// A cell as the page names it: axial `q,r`.
pub fn cell_text(h: Hex) -> String {
    format!("{},{}", h.q, h.r)
}

/// The variant in words: `7×7`, `39 tiles`.
pub fn variant_words(lang: Lang, options: &Options) -> String {
    crate::play::words::board_size(options).render(lang)
}

/// A Unix time as `2026-11-27T09:00:00Z`.
pub fn utc_time(t: i64) -> String {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    // Days to a civil date (proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// The seat of `user` in the game (0 starts with the first colour).
pub fn seat_of(row: &GameRow, user: UserId) -> Option<usize> {
    row.players.iter().position(|&p| p == user)
}

/// The board as SVG ([`crate::render::svg::board`]), with the cells of `targets` clickable.
pub fn board_svg(
    lang: Lang,
    game: &Game,
    ply: Option<usize>,
    names: &[String; 2],
    targets: &[Hex],
) -> Result<String, Error> {
    crate::render::svg::board(lang, game, ply, names, targets)
        .map_err(|e| Error::Internal(anyhow::anyhow!("the board's SVG: {e}")))
}

/// The legal moves of `game`'s player to move, each with its notation, words and steps, and
/// the cells their steps click (in board order), which the board marks as clickable.
pub fn legal_moves(lang: Lang, game: &Game) -> (Vec<Legal>, Vec<Hex>) {
    let position = game.position();
    let moves = game.legal_moves();
    let legal = moves
        .iter()
        .map(|mv| Legal {
            notation: mv.to_string(),
            words: picker::describe(lang, position, mv),
            steps: picker::steps(position, mv)
                .into_iter()
                .map(|s| StepJson {
                    cell: s.cell.map(cell_text),
                    key: s.key,
                    label: s.label.render(lang),
                })
                .collect(),
        })
        .collect();
    let mut targets: Vec<Hex> = moves
        .iter()
        .flat_map(|mv| picker::steps(position, mv))
        .filter_map(|s| s.cell)
        .collect();
    targets.sort_by_key(|h| (h.r, h.q));
    targets.dedup();
    (legal, targets)
}

/// The state of game `row` in `lang`, for `you` (a link's player) or for anyone (`None`).
pub async fn build(
    pool: &Pool,
    row: &GameRow,
    game: &Game,
    lang: Lang,
    you: Option<UserId>,
) -> Result<State, Error> {
    build_for(pool, row, game, lang, you, false).await
}

/// The state of a position planned ahead from game `row` (`game` is the game after the line),
/// for `you`, its planner: the same shape as [`build`], with the legal moves of whoever is to
/// move there, so the page picks the opponent's expected moves and the replies alike.
pub async fn build_planned(
    pool: &Pool,
    row: &GameRow,
    game: &Game,
    lang: Lang,
    you: UserId,
) -> Result<State, Error> {
    build_for(pool, row, game, lang, Some(you), true).await
}

/// [`build`], with the legal moves for `you` only on their turn, or (`either_side`) on both.
async fn build_for(
    pool: &Pool,
    row: &GameRow,
    game: &Game,
    lang: Lang,
    you: Option<UserId>,
    either_side: bool,
) -> Result<State, Error> {
    let kind = game.kind();
    let mut names = [String::new(), String::new()];
    for (seat, &user) in row.players.iter().enumerate() {
        let name = db::fetch_name(pool, user).await?;
        names[seat] = words::name_in(lang, name, || format!("#{}", seat + 1));
    }
    let colour_words = |seat: usize| {
        colour_of(row, game, row.players[seat])
            .map(|c| words::colour(kind, c).render(lang))
            .unwrap_or_default()
    };
    // The picture names the players by colour (the first colour's first).
    let colour_index = |seat: usize| colour_of(row, game, row.players[seat]).map(|c| c.index());
    let mut by_colour = names.clone();
    for (seat, name) in names.iter().enumerate() {
        if let Some(c) = colour_index(seat) {
            by_colour[c] = name.clone();
        }
    }
    let (holds, supply) = header_words(lang, game, &by_colour);
    let players = (0..2)
        .map(|seat| Player {
            name: names[seat].clone(),
            colour: colour_words(seat),
            bank: row.clock.map(|c| c.banks[seat]),
            holds: colour_index(seat)
                .map(|c| holds[c].clone())
                .unwrap_or_default(),
        })
        .collect();
    let active = row.status == GameStatus::Active && !game.is_over();
    let to_move = active
        .then(|| seat_of(row, player_to_move(row, game)))
        .flatten();
    let result = (!active).then(|| {
        match (&row.result, game.outcome()) {
            (Some(r), _) => {
                words::result_naming(row, r, &|u| names[usize::from(row.players[0] != u)].clone())
            }
            (None, Some(o)) => words::outcome(kind, &o),
            (None, None) => words::row_result(row),
        }
        .render(lang)
    });
    let status = match (to_move, &result) {
        (Some(seat), _) => text!(
            "web-status-to-move",
            name = names[seat].clone(),
            colour = colour_words(seat)
        )
        .render(lang),
        (None, Some(r)) => r.clone(),
        (None, None) => words::row_result(row).render(lang),
    };
    let positions = game.positions();
    let moves = game
        .moves()
        .iter()
        .zip(&positions)
        .enumerate()
        .map(|(i, (mv, before))| MoveLine {
            ply: i + 1,
            notation: mv.to_string(),
            words: text!(
                "web-move-words",
                colour = words::colour(kind, before.to_move()),
                words = picker::describe(lang, before, mv)
            )
            .render(lang),
        })
        .collect();
    let seat = you.and_then(|u| seat_of(row, u));
    let (legal, targets) = match (seat, to_move) {
        (Some(s), Some(t)) if s == t || either_side => legal_moves(lang, game),
        _ => (Vec::new(), Vec::new()),
    };
    let svg = board_svg(lang, game, None, &by_colour, &targets)?;
    let analysis = stored_chart(pool, row, game, lang).await?;
    Ok(State {
        id: row.id,
        kind: kind.name(),
        variant: variant_words(lang, game.options()),
        version: row.version,
        revision: row.revision,
        lang: super::texts::lang_code(lang),
        players,
        to_move,
        deadline: row.deadline_at.filter(|_| active).map(utc_time),
        status,
        result,
        moves,
        svg,
        you: seat.map(|seat| You { seat }),
        legal,
        texts: super::texts::page_texts(lang),
        analysis,
        supply,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_in_utc() {
        assert_eq!(utc_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_time(1_795_770_000), "2026-11-27T09:00:00Z");
        assert_eq!(utc_time(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_time(-1), "1969-12-31T23:59:59Z");
    }

    /// A player who had their data deleted is "a former member" on the game's page, in its
    /// players and its result, in the page's language; the opponent keeps their name.
    #[tokio::test]
    async fn a_former_member_is_named_so_on_the_page() {
        let (pool, _file) = crate::db::testing::temp_db().await;
        let (ann, bob) = (UserId(u64::MAX - 202), UserId(202));
        for (id, name) in [(ann, "ann"), (bob, "bob")] {
            db::upsert_player(&pool, id, name, 0).await.unwrap();
        }
        let options = Options::parse_line("inphexion size=5").unwrap();
        let id = db::insert_game(
            &pool,
            &db::NewGame {
                guild_id: Some(db::GuildId(1)),
                channel_id: db::ChannelId(2),
                options: &options,
                players: [ann, bob],
                rated: false,
                now: 0,
                seconds_per_move: 86_400,
                deadline_at: Some(86_400),
                clock: None,
            },
        )
        .await
        .unwrap();
        let core = crate::play::actions::Core::new(pool.clone(), crate::clock::Clock::fixed(10).0);
        crate::play::actions::resign(&core, id, bob).await.unwrap();
        let mut tx = pool.begin().await.unwrap();
        db::forget_member(&mut tx, ann, 20).await.unwrap();
        tx.commit().await.unwrap();
        crate::i18n::note_former_members([ann.0]);
        let (row, game) = crate::play::actions::load(&pool, id).await.unwrap();
        for (lang, former) in [
            (Lang::EN, "a former member"),
            (Lang::of("ja"), "元メンバー"),
        ] {
            let page = build(&pool, &row, &game, lang, None).await.unwrap();
            assert_eq!(page.players[0].name, former);
            assert_eq!(page.players[1].name, "bob");
            let result = page.result.unwrap_or_default();
            assert!(
                result.contains(former) && result.contains("bob"),
                "{result}"
            );
        }
    }
}
