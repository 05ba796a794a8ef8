//! The Move button's picker: one legal move built step by step, each step offering only the
//! choices that still lead to a legal move. Plain functions over the rules, tested without
//! Discord; `components` turns a [`View`] into select menus and buttons.
//!
//! Every legal move is a sequence of [`Step`]s (inpHeXion: the disc pushed, where it goes, then
//! a destination for each relocated disc; EXXIT: the dancing stack and the stack it hits, or
//! "lay a tile"/"place a disc" and the cell; `pass` and `swap` on their own). The player's
//! choices so far are a [`Path`] of small indices, carried in the components' `custom_id`, so a
//! picker needs no memory in the bot and survives restarts; a path is read again against the
//! position every time, so a forged or outdated one is refused, never guessed.

use std::collections::BTreeMap;
use std::fmt;

use crate::games::{exxit, inphexion, on_game, Game, Move, Position, Registered};
use crate::hex::Hex;
use crate::i18n::{Lang, Text};
use crate::text;

/// A select menu holds at most this many options (Discord's limit).
pub const MAX_OPTIONS: usize = 25;

/// One step of a move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Step {
    /// Identifies the choice among the others at this step.
    pub key: String,
    /// The choice in words, as a menu shows it.
    pub label: Text,
    /// The question this step answers.
    pub prompt: Text,
    /// Where the options are too many for one menu, the row they are narrowed by.
    pub group: Option<Text>,
    /// Offered as a button rather than in a menu (pass, swap, lay or place).
    pub button: bool,
    /// The cell this step chooses (`None` for a button): where a page clicks for it.
    pub cell: Option<Hex>,
    /// Sort order among the choices: kind of choice, then row, then column.
    rank: (u8, i32, i32),
}

impl Step {
    fn button(key: &str, label: Text, prompt: Text, order: u8) -> Step {
        Step {
            key: key.to_string(),
            label,
            prompt,
            group: None,
            button: true,
            cell: None,
            rank: (order, 0, 0),
        }
    }

    fn cell(key: String, label: Text, prompt: Text, cell: Hex, row: Text) -> Step {
        Step {
            key,
            label,
            prompt,
            group: Some(row),
            button: false,
            cell: Some(cell),
            rank: (10, cell.r, cell.q),
        }
    }
}

/// An inpHeXion row's name (`c3` is in row 3).
fn inphexion_row(h: Hex) -> Text {
    text!("picker-row", n = h.r + 1)
}

/// An EXXIT row's name (cells `q,r` with the same `r`).
fn exxit_row(h: Hex) -> Text {
    text!("picker-row-r", r = h.r)
}

/// What the picker needs of a game: each legal move as steps, and a move in words. Each game
/// implements it here (its words are translated texts, which `games` does not know); the
/// picker reaches it through the games' registry (`on_game!`).
pub trait Pick: Registered {
    /// The steps of `mv`, a legal move in `position`.
    fn steps(position: &Self::Position, mv: &Self::Move) -> Vec<Step>;
    /// `mv` in words, where the words of its last step do not say it all.
    fn words(position: &Self::Position, mv: &Self::Move) -> Option<Text>;
}

/// The steps of `mv`, a legal move in `position`.
pub fn steps(position: &Position, mv: &Move) -> Vec<Step> {
    on_game!((position, mv), Position(p), Move(m), G => G::steps(p, m), _ => Vec::new())
}

impl Pick for inphexion::Inphexion {
    fn steps(_: &inphexion::Position, m: &inphexion::Move) -> Vec<Step> {
        inphexion_steps(m)
    }

    fn words(_: &inphexion::Position, m: &inphexion::Move) -> Option<Text> {
        let inphexion::MoveKind::Regular { from, to } = m.kind() else {
            return None;
        };
        use inphexion::cell_name;
        let push = text!("words-push", from = cell_name(from), to = cell_name(to));
        Some(m.relocations().fold(push, |words, (s, d)| {
            let moved = text!("words-relocate", from = cell_name(s), to = cell_name(d));
            text!("words-then", first = words, next = moved)
        }))
    }
}

impl Pick for exxit::Exxit {
    fn steps(p: &exxit::Position, m: &exxit::Move) -> Vec<Step> {
        exxit_steps(p, m)
    }

    fn words(p: &exxit::Position, m: &exxit::Move) -> Option<Text> {
        let exxit::Move::Dance { from, target } = m else {
            return None;
        };
        let (from, onto) = (from.to_string(), target.to_string());
        Some(if falls_into_space(p, m) {
            text!("words-dance-space", from = from, onto = onto)
        } else {
            text!("words-dance", from = from, onto = onto)
        })
    }
}

fn inphexion_steps(m: &inphexion::Move) -> Vec<Step> {
    use inphexion::{cell_name, MoveKind};
    match m.kind() {
        MoveKind::Swap => vec![Step::button(
            "swap",
            text!("pick-swap"),
            text!("ask-swap-or-place"),
            0,
        )],
        MoveKind::Place(c) => vec![Step::cell(
            format!("place:{}", cell_name(c)),
            text!("pick-place-on", cell = cell_name(c)),
            text!("ask-place-where"),
            c,
            inphexion_row(c),
        )],
        MoveKind::Regular { from, to } => {
            let mut steps = vec![
                Step::cell(
                    format!("push:{}", cell_name(from)),
                    text!("pick-push", cell = cell_name(from)),
                    text!("ask-push-which"),
                    from,
                    inphexion_row(from),
                ),
                Step::cell(
                    format!("to:{}", cell_name(to)),
                    text!("pick-push-to", cell = cell_name(to)),
                    text!("ask-push-where"),
                    to,
                    inphexion_row(to),
                ),
            ];
            for (s, d) in m.relocations() {
                steps.push(Step::cell(
                    format!("rel:{}>{}", cell_name(s), cell_name(d)),
                    text!("pick-relocate", from = cell_name(s), to = cell_name(d)),
                    text!("ask-relocate-where"),
                    d,
                    inphexion_row(d),
                ));
            }
            steps
        }
    }
}

fn exxit_steps(p: &exxit::Position, m: &exxit::Move) -> Vec<Step> {
    use exxit::Move as X;
    match *m {
        X::Pass => vec![Step::button(
            "pass",
            text!("pick-pass"),
            text!("ask-only-pass"),
            0,
        )],
        X::Swap => vec![Step::button(
            "swap",
            text!("pick-swap"),
            text!("ask-swap-or-build"),
            1,
        )],
        X::Dance { from, target } => vec![
            Step::cell(
                format!("dance:{from}"),
                text!("pick-dance", cell = from.to_string()),
                text!("ask-dance-which"),
                from,
                exxit_row(from),
            ),
            Step::cell(
                format!("onto:{target}"),
                if falls_into_space(p, m) {
                    text!("pick-onto-space", cell = target.to_string())
                } else {
                    text!("pick-onto", cell = target.to_string())
                },
                text!("ask-onto-which"),
                target,
                exxit_row(target),
            ),
        ],
        X::Expand(c) => vec![
            Step::button("lay", text!("pick-lay"), text!("ask-lay-or-place"), 2),
            Step::cell(
                format!("lay:{c}"),
                lay_words(p, m, c),
                text!("ask-lay-where"),
                c,
                exxit_row(c),
            ),
        ],
        X::Place(c) => vec![
            Step::button("place", text!("pick-place"), text!("ask-lay-or-place"), 3),
            Step::cell(
                format!("place:{c}"),
                text!("pick-place-on", cell = c.to_string()),
                text!("ask-place-tile"),
                c,
                exxit_row(c),
            ),
        ],
    }
}

/// Does this dance drop discs into outer space (rule X14)? It leaves a new stack there.
pub(crate) fn falls_into_space(p: &exxit::Position, m: &exxit::Move) -> bool {
    let in_space = |q: &exxit::Position| q.stacks().filter(|&(c, _)| q.is_outer_space(c)).count();
    let mut after = p.clone();
    after.play(m);
    in_space(&after) > in_space(p)
}

/// "Lay a tile at -1,0", with " (+2 by chain)" when the expansion lays more than one tile
/// (rule X16).
fn lay_words(p: &exxit::Position, m: &exxit::Move, c: Hex) -> Text {
    let mut after = p.clone();
    after.play(m);
    let extra = after.tiles().count().saturating_sub(p.tiles().count() + 1);
    if extra > 0 {
        text!("pick-lay-at-chain", cell = c.to_string(), extra = extra)
    } else {
        text!("pick-lay-at", cell = c.to_string())
    }
}

/// A move in words: "Push the disc on c3 to d3, relocate e5 to a1", "Dance the stack on 1,-1
/// onto 0,0 (falls into space)", "Lay a tile at -1,0 (+2 by chain)", "Place a disc on 0,1".
/// Every text that names a move in words (captions, pictures, analysis, the web page, takeback
/// requests) says it so.
pub fn describe(lang: Lang, position: &Position, mv: &Move) -> String {
    describe_text(position, mv).render(lang)
}

/// [`describe`] as a [`Text`], for a message rendered later in its reader's language (a
/// takeback request, a board's introduction).
pub fn describe_text(position: &Position, mv: &Move) -> Text {
    // A single choice, or "Lay a tile" / "Place a disc" said again by the cell's own words.
    let words = on_game!((position, mv), Position(p), Move(m), G => G::words(p, m), _ => None);
    words.unwrap_or_else(|| last_label(position, mv))
}

/// The move written `notation` in `position`, in words ([`describe`]); `None` when no legal move
/// there is written so.
pub fn describe_notation(lang: Lang, position: &Position, notation: &str) -> Option<String> {
    position
        .legal_moves()
        .into_iter()
        .find(|m| m.to_string() == notation)
        .map(|m| describe(lang, position, &m))
}

/// The words of a move's last step.
fn last_label(position: &Position, mv: &Move) -> Text {
    steps(position, mv)
        .last()
        .map_or_else(|| Text::raw(""), |s| s.label.clone())
}

/// One choice made: an option's index, or a row's index where the options were narrowed first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Token {
    Pick(u16),
    Group(u16),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Pick(i) => write!(f, "{i}"),
            Token::Group(i) => write!(f, "g{i}"),
        }
    }
}

impl Token {
    pub fn parse(s: &str) -> Option<Token> {
        match s.strip_prefix('g') {
            Some(g) => g.parse().ok().map(Token::Group),
            None => s.parse().ok().map(Token::Pick),
        }
    }
}

/// The choices made so far, as the `custom_id` carries them (`3.g1.0`).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Path(pub Vec<Token>);

/// Longest path accepted (inpHeXion: two steps and six relocations, each maybe narrowed).
const MAX_PATH: usize = 2 * (2 + inphexion::MAX_RELOCATIONS) + 2;

impl Path {
    pub fn encode(&self) -> String {
        self.0
            .iter()
            .map(Token::to_string)
            .collect::<Vec<_>>()
            .join(".")
    }

    /// `None` for text that is not a path.
    pub fn parse(s: &str) -> Option<Path> {
        if s.is_empty() {
            return Some(Path::default());
        }
        let tokens = s.split('.').map(Token::parse).collect::<Option<Vec<_>>>()?;
        (tokens.len() <= MAX_PATH).then_some(Path(tokens))
    }

    /// This path with one more choice.
    pub fn then(&self, t: Token) -> Path {
        let mut p = self.clone();
        p.0.push(t);
        p
    }

    /// This path without its last choice.
    pub fn back(&self) -> Path {
        let mut p = self.clone();
        p.0.pop();
        p
    }
}

/// An option offered at a step.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Choice {
    pub token: Token,
    pub label: String,
    pub button: bool,
}

/// What the picker shows for a path.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum View {
    /// A step to take: a question and its options.
    Choose {
        prompt: String,
        /// The words of the choices made so far.
        so_far: Vec<String>,
        choices: Vec<Choice>,
    },
    /// The move is complete: confirm it.
    Confirm {
        mv: Move,
        words: String,
        notation: String,
    },
}

/// A path that does not lead anywhere in this position (forged, or from another position).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BadPath;

/// The options at one step: the distinct next steps of the remaining moves, in order.
fn options<'a>(candidates: &[(Move, &'a [Step])], depth: usize) -> Vec<&'a Step> {
    let mut seen: BTreeMap<(u8, i32, i32, &str), &Step> = BTreeMap::new();
    for (_, steps) in candidates {
        if let Some(s) = steps.get(depth) {
            seen.entry((s.rank.0, s.rank.1, s.rank.2, s.key.as_str()))
                .or_insert(s);
        }
    }
    seen.into_values().collect()
}

/// The groups the menu options are narrowed by: the row of each, in order; options without a
/// row, and buttons, stay outside every group. When rows would not fit (more than
/// [`MAX_OPTIONS`] rows, or a row with more), options are cut in runs of [`MAX_OPTIONS`].
fn groups<'a>(lang: Lang, menu: &[&'a Step]) -> Vec<(String, Vec<&'a Step>)> {
    let mut rows: Vec<(Option<&Text>, Vec<&Step>)> = Vec::new();
    for s in menu {
        let name = s.group.as_ref();
        match rows.iter_mut().find(|(g, _)| *g == name) {
            Some((_, v)) => v.push(s),
            None => rows.push((name, vec![s])),
        }
    }
    if rows.len() <= MAX_OPTIONS && rows.iter().all(|(_, v)| v.len() <= MAX_OPTIONS) {
        return rows
            .into_iter()
            .map(|(name, v)| (name.map(|t| t.render(lang)).unwrap_or_default(), v))
            .collect();
    }
    menu.chunks(MAX_OPTIONS)
        .map(|chunk| {
            let label = |s: Option<&&Step>| s.map(|s| s.label.render(lang)).unwrap_or_default();
            let (first, last) = (label(chunk.first()), label(chunk.last()));
            (format!("{first} … {last}"), chunk.to_vec())
        })
        .collect()
}

/// The picker's view of `game` (its current position) after the choices in `path`.
pub fn view(lang: Lang, game: &Game, path: &Path) -> Result<View, BadPath> {
    let position = game.position();
    let all: Vec<(Move, Vec<Step>)> = game
        .legal_moves()
        .into_iter()
        .map(|m| (m, steps(position, &m)))
        .collect();
    let mut candidates: Vec<(Move, &[Step])> =
        all.iter().map(|(m, s)| (*m, s.as_slice())).collect();
    let mut depth = 0;
    let mut group: Option<usize> = None;
    let mut so_far = Vec::new();
    for token in &path.0 {
        if group.is_none() {
            take_forced(lang, &mut candidates, &mut depth, &mut so_far);
        }
        let opts = options(&candidates, depth);
        let (buttons, menu): (Vec<&Step>, Vec<&Step>) = opts.iter().partition(|s| s.button);
        let narrowed = menu.len() > MAX_OPTIONS;
        let chosen: &Step = match *token {
            Token::Group(g) => {
                if !narrowed || group.is_some() {
                    return Err(BadPath);
                }
                let g = usize::from(g);
                if g >= groups(lang, &menu).len() {
                    return Err(BadPath);
                }
                group = Some(g);
                continue;
            }
            Token::Pick(i) => {
                let i = usize::from(i);
                let offered = offered(lang, &buttons, &menu, narrowed, group);
                *offered.get(i).ok_or(BadPath)?
            }
        };
        so_far.push(chosen.label.render(lang));
        let key = chosen.key.clone();
        candidates.retain(|(_, s)| s.get(depth).is_some_and(|s| s.key == key));
        depth += 1;
        group = None;
    }
    if group.is_none() {
        take_forced(lang, &mut candidates, &mut depth, &mut so_far);
        if let [(mv, steps)] = candidates.as_slice() {
            if steps.len() == depth {
                return Ok(View::Confirm {
                    mv: *mv,
                    words: describe(lang, position, mv),
                    notation: mv.to_string(),
                });
            }
        }
    }
    let opts = options(&candidates, depth);
    if opts.is_empty() {
        return Err(BadPath);
    }
    let (buttons, menu): (Vec<&Step>, Vec<&Step>) = opts.iter().partition(|s| s.button);
    let narrowed = menu.len() > MAX_OPTIONS;
    let prompt = menu
        .first()
        .or(buttons.first())
        .map(|s| s.prompt.render(lang))
        .unwrap_or_default();
    let choices = if narrowed && group.is_none() {
        // First narrow the menu by row; the buttons stay offered beside it.
        let mut c: Vec<Choice> = buttons
            .iter()
            .enumerate()
            .map(|(i, s)| Choice {
                token: Token::Pick(i as u16),
                label: s.label.render(lang),
                button: true,
            })
            .collect();
        c.extend(
            groups(lang, &menu)
                .into_iter()
                .enumerate()
                .map(|(i, (name, v))| Choice {
                    token: Token::Group(i as u16),
                    label: text!("picker-group", name = name, n = v.len()).render(lang),
                    button: false,
                }),
        );
        c
    } else {
        offered(lang, &buttons, &menu, narrowed, group)
            .into_iter()
            .enumerate()
            .map(|(i, s)| Choice {
                token: Token::Pick(i as u16),
                label: s.label.render(lang),
                button: s.button,
            })
            .collect()
    };
    Ok(View::Choose {
        prompt,
        so_far,
        choices,
    })
}

/// Takes, for the player, every step from `depth` on that offers one choice only (EXXIT's "lay a
/// tile or place a disc?" when only placing is possible, a forced dance with one dancer or one
/// target): its words join `so_far`, and the path needs no choice for it. A step is taken only
/// while every remaining move goes on past it, so no move is ever left out.
fn take_forced(
    lang: Lang,
    candidates: &mut Vec<(Move, &[Step])>,
    depth: &mut usize,
    so_far: &mut Vec<String>,
) {
    while candidates.iter().all(|(_, s)| s.len() > *depth) {
        let opts = options(candidates, *depth);
        let [only] = opts.as_slice() else {
            return;
        };
        so_far.push(only.label.render(lang));
        let key = only.key.clone();
        candidates.retain(|(_, s)| s.get(*depth).is_some_and(|s| s.key == key));
        *depth += 1;
    }
}

/// The options a `Pick` index points into: the buttons, then the menu (or the chosen row of it).
fn offered<'a>(
    lang: Lang,
    buttons: &[&'a Step],
    menu: &[&'a Step],
    narrowed: bool,
    group: Option<usize>,
) -> Vec<&'a Step> {
    let mut v: Vec<&Step> = buttons.to_vec();
    match (narrowed, group) {
        (false, _) => v.extend(menu.iter().copied()),
        (true, Some(g)) => {
            if let Some((_, rows)) = groups(lang, menu).into_iter().nth(g) {
                v.extend(rows);
            }
        }
        (true, None) => {}
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameKind, Options};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::collections::HashSet;

    /// Every move reachable by walking all the picker's choices from `path`.
    fn reachable(game: &Game, path: Path, out: &mut Vec<Move>) {
        match view(Lang::EN, game, &path).expect("a path the picker offered") {
            View::Confirm { mv, notation, .. } => {
                assert_eq!(notation, mv.to_string());
                out.push(mv);
            }
            View::Choose { choices, .. } => {
                assert!(!choices.is_empty());
                let menu = choices.iter().filter(|c| !c.button).count();
                assert!(menu <= MAX_OPTIONS, "{menu} options in one menu");
                for c in choices {
                    reachable(game, path.then(c.token), out);
                }
            }
        }
    }

    fn check_position(game: &Game) -> Vec<Move> {
        let mut got = Vec::new();
        reachable(game, Path::default(), &mut got);
        let legal: HashSet<Move> = game.legal_moves().into_iter().collect();
        let unique: HashSet<Move> = got.iter().copied().collect();
        assert_eq!(unique.len(), got.len(), "a move is reachable twice");
        assert_eq!(unique, legal, "{}", game.position().to_line());
        got
    }

    /// Checks positions of random games; returns the notations of every move checked.
    fn random_games(options: &str, games: usize, seed: u64) -> Vec<String> {
        let mut checked = Vec::new();
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..games {
            let mut game = Game::new(Options::parse_line(options).unwrap());
            let mut plies = 0;
            while !game.is_over() && plies < 200 {
                if plies % 3 == 0 || game.legal_moves().len() < 200 {
                    checked.extend(check_position(&game).iter().map(Move::to_string));
                }
                let moves = game.legal_moves();
                let mv = moves[rng.random_range(0..moves.len())];
                game.play(mv).unwrap();
                plies += 1;
            }
        }
        checked
    }

    #[test]
    fn the_steps_reach_exactly_the_legal_moves_in_inphexion() {
        let mut seen = random_games("inphexion size=5 pie free-reply", 3, 1);
        seen.extend(random_games("inphexion size=7 neutral", 1, 6));
        seen.extend(random_games("inphexion size=7 pie", 2, 2));
        seen.extend(random_games("inphexion size=11", 1, 3));
        // Every kind of move went through the steps: placements, swaps, pushes, relocations.
        assert!(seen.iter().any(|m| m == "swap"));
        assert!(seen.iter().any(|m| !m.contains('-') && m != "swap"));
        assert!(seen.iter().any(|m| m.contains('-') && !m.contains('>')));
        assert!(seen.iter().any(|m| m.contains('>')), "no relocations");
    }

    #[test]
    fn the_steps_reach_exactly_the_legal_moves_in_exxit() {
        let mut seen = random_games("exxit tiles=19 pie", 4, 4);
        seen.extend(random_games("exxit tiles=39 expert", 2, 5));
        for kind in ["swap", "pass", "+", "-"] {
            assert!(seen.iter().any(|m| m.contains(kind)), "no {kind} moves");
        }
    }

    /// A step with one choice is taken for the player: the picker asks only real questions,
    /// and a position with one legal move goes straight to its confirmation.
    #[test]
    fn a_step_with_one_choice_is_taken_for_the_player() {
        let mut rng = SmallRng::seed_from_u64(9);
        let (mut skipped, mut single) = (0, 0);
        for line in [
            "exxit tiles=19",
            "exxit tiles=39 pie",
            "inphexion size=5 pie",
        ] {
            for _ in 0..6 {
                let mut game = Game::new(Options::parse_line(line).unwrap());
                while !game.is_over() && game.ply() < 150 {
                    let legal = game.legal_moves();
                    let all: Vec<Vec<Step>> =
                        legal.iter().map(|m| steps(game.position(), m)).collect();
                    let candidates: Vec<(Move, &[Step])> = legal
                        .iter()
                        .zip(&all)
                        .map(|(m, s)| (*m, s.as_slice()))
                        .collect();
                    let first = options(&candidates, 0);
                    match view(Lang::EN, &game, &Path::default()).unwrap() {
                        View::Confirm { mv, .. } => {
                            assert_eq!(legal, [mv], "{}", game.position().to_line());
                            single += 1;
                        }
                        View::Choose {
                            so_far, choices, ..
                        } => {
                            assert!(choices.len() > 1, "a question with one answer: {choices:?}");
                            if first.len() == 1 {
                                assert_eq!(so_far, [first[0].label.render(Lang::EN)]);
                                skipped += 1;
                            } else {
                                assert!(so_far.is_empty());
                            }
                        }
                    }
                    let mv = legal[rng.random_range(0..legal.len())];
                    game.play(mv).unwrap();
                }
            }
        }
        assert!(
            skipped > 0 && single > 0,
            "skipped {skipped}, single {single}"
        );
    }

    /// Each step names the cell it chooses (what a page clicks), and buttons name none.
    #[test]
    fn steps_name_their_cells() {
        let mut game = Game::new(Options::parse_line("inphexion size=5 pie").unwrap());
        game.play_text("c3").unwrap();
        let pos = game.position().clone();
        let swap = pos.parse_move("swap").unwrap();
        assert_eq!(steps(&pos, &swap)[0].cell, None);
        let push = pos.parse_move("c3-d3").unwrap();
        let cells: Vec<Option<Hex>> = steps(&pos, &push).iter().map(|s| s.cell).collect();
        let name = |h: Option<Hex>| h.map(inphexion::cell_name);
        assert_eq!(
            cells.iter().map(|c| name(*c)).collect::<Vec<_>>(),
            [Some("c3".to_string()), Some("d3".to_string())]
        );
        let x = Game::new(Options::parse_line("exxit tiles=19").unwrap());
        for mv in x.legal_moves() {
            let s = steps(x.position(), &mv);
            assert!(s.iter().all(|s| s.button == s.cell.is_none()), "{mv}");
            assert!(s.iter().any(|s| s.cell.is_some()) || s.len() == 1, "{mv}");
        }
    }

    #[test]
    fn paths_round_trip_and_forged_ones_are_refused() {
        let p = Path(vec![Token::Pick(3), Token::Group(1), Token::Pick(0)]);
        assert_eq!(p.encode(), "3.g1.0");
        assert_eq!(Path::parse("3.g1.0"), Some(p.clone()));
        assert_eq!(Path::parse(""), Some(Path::default()));
        for bad in ["x", "3..1", "g", "-1", "99999999", &"1.".repeat(40)] {
            assert_eq!(Path::parse(bad), None, "{bad}");
        }
        let game = Game::new(Options::default_for(GameKind::Inphexion));
        assert_eq!(
            view(Lang::EN, &game, &Path(vec![Token::Pick(400)])),
            Err(BadPath)
        );
        // The first placement on 7×7 offers 49 cells: narrowed by row first.
        let View::Choose { choices, .. } = view(Lang::EN, &game, &Path::default()).unwrap() else {
            panic!("a choice first");
        };
        assert_eq!(choices.len(), 7);
        assert!(choices.iter().all(|c| matches!(c.token, Token::Group(_))));
        assert_eq!(
            view(Lang::EN, &game, &Path(vec![Token::Group(7)])),
            Err(BadPath)
        );
        assert_eq!(
            view(
                Lang::EN,
                &game,
                &Path(vec![Token::Group(0), Token::Group(1)])
            ),
            Err(BadPath)
        );
    }

    #[test]
    fn moves_are_said_in_words() {
        let mut game = Game::new(Options::parse_line("exxit tiles=19").unwrap());
        let words: Vec<String> = game
            .legal_moves()
            .iter()
            .map(|m| describe(Lang::EN, game.position(), m))
            .collect();
        assert!(
            words.iter().any(|w| w.starts_with("Place a disc on ")),
            "{words:?}"
        );
        game.play_text("0,0").ok();
        let mut inp = Game::new(Options::parse_line("inphexion size=5 pie").unwrap());
        inp.play_text("c3").unwrap();
        let words: Vec<String> = inp
            .legal_moves()
            .iter()
            .map(|m| describe(Lang::EN, inp.position(), m))
            .collect();
        assert!(words.contains(&"Swap colours".to_string()), "{words:?}");
        inp.play_text("b2").ok();
        let regular = inp
            .legal_moves()
            .into_iter()
            .find(|m| m.to_string().contains('-'));
        if let Some(m) = regular {
            let w = describe(Lang::EN, inp.position(), &m);
            let Move::Inphexion(inner) = m else {
                panic!("{m} is an inpHeXion move");
            };
            let inphexion::MoveKind::Regular { from, to } = inner.kind() else {
                panic!("{m} is a push");
            };
            let (from, to) = (inphexion::cell_name(from), inphexion::cell_name(to));
            assert!(
                w.starts_with(&format!("Push the disc on {from} to {to}")),
                "{w}"
            );
            let ja = describe(Lang::of("ja"), inp.position(), &m);
            assert!(
                ja.starts_with(&format!("{from} のディスクを {to} へ押し出す")),
                "{ja}"
            );
        }
    }
}
