//! Who may do what in a game, which game a command means, and which moves to suggest: plain
//! functions that tests call without Discord.

use super::picker::describe;
use super::words::{self, row_result as result_words};
use crate::db::{GameRow, GameStatus};
use crate::db::{GuildId, UserId};
use crate::games::{Colour, Game, Move};
use crate::i18n::Lang;
use crate::text;

use super::Refusal;

pub use super::words::mention;

/// Whether the players have exchanged colours (an odd number of pie swaps).
pub fn swapped(game: &Game) -> bool {
    swapped_by(game.moves())
}

/// Whether `moves` exchanged the players' colours.
fn swapped_by(moves: &[Move]) -> bool {
    moves.iter().filter(|m| m.to_string() == "swap").count() % 2 == 1
}

/// The player holding `colour` now.
pub fn player_of(row: &GameRow, game: &Game, colour: Colour) -> UserId {
    player_at(row, game, game.ply(), colour)
}

/// The player who held `colour` after the first `ply` moves of `game`.
pub fn player_at(row: &GameRow, game: &Game, ply: usize, colour: Colour) -> UserId {
    let moves = game.moves();
    let swapped = swapped_by(&moves[..ply.min(moves.len())]);
    row.players[colour.index() ^ usize::from(swapped)]
}

/// The colour `user` holds now, if they play in this game.
pub fn colour_of(row: &GameRow, game: &Game, user: UserId) -> Option<Colour> {
    Colour::BOTH
        .into_iter()
        .find(|&c| player_of(row, game, c) == user)
}

/// The player to move.
pub fn player_to_move(row: &GameRow, game: &Game) -> UserId {
    player_of(row, game, game.position().to_move())
}

/// Refuses a user who may not act in this game: not active, or not a player.
pub fn check_player(row: &GameRow, user: UserId) -> Result<(), Refusal> {
    if row.status != GameStatus::Active {
        return Err(Refusal::new(text!(
            "game-over-start-new",
            game = row.id,
            result = result_words(row)
        )));
    }
    check_member(row, user)
}

/// Is `user` one of the game's players (whether it is over or not)?
pub fn check_member(row: &GameRow, user: UserId) -> Result<(), Refusal> {
    if !row.players.contains(&user) {
        return Err(Refusal::new(text!(
            "game-not-yours",
            game = row.id,
            a = mention(row.players[0]),
            b = mention(row.players[1])
        )));
    }
    Ok(())
}

/// May `user` move now?
pub fn check_may_move(row: &GameRow, game: &Game, user: UserId) -> Result<(), Refusal> {
    check_player(row, user)?;
    let to_move = player_to_move(row, game);
    if to_move != user {
        return Err(Refusal::new(text!(
            "not-your-turn",
            game = row.id,
            who = mention(to_move),
            colour = words::colour(game.kind(), game.position().to_move())
        )));
    }
    Ok(())
}

/// Is there time left for a move at `now`? After the deadline the game is lost on time (the
/// timer task ends it at its next scan); a move arriving in between is refused.
pub fn check_in_time(row: &GameRow, now: i64) -> Result<(), Refusal> {
    match row.deadline_at {
        Some(d) if now >= d => Err(Refusal::new(text!("time-ran-out", game = row.id, at = d))),
        _ => Ok(()),
    }
}

/// Which of the caller's games a command means: the one named, or else the only one (or, for
/// moves, the only one where it is the caller's turn).
pub fn choose_game<'a>(
    games: &'a [GameRow],
    requested: Option<i64>,
    my_turn: &dyn Fn(&GameRow) -> bool,
) -> Result<&'a GameRow, Refusal> {
    if let Some(id) = requested {
        return games
            .iter()
            .find(|g| g.id == id)
            .ok_or_else(|| Refusal::new(text!("no-such-active-game-here", game = id)));
    }
    match games {
        [] => Err(Refusal::new(text!("no-active-game-here"))),
        [one] => Ok(one),
        many => {
            let mine: Vec<&GameRow> = many.iter().filter(|g| my_turn(g)).collect();
            if let [one] = mine.as_slice() {
                return Ok(one);
            }
            let ids: Vec<String> = many.iter().map(|g| format!("#{}", g.id)).collect();
            Err(Refusal::new(text!(
                "several-games-here",
                games = ids.join(", ")
            )))
        }
    }
}

/// Reads a game reference typed or chosen by a user: `12` or `#12`.
/// Only a whole number is a game number: `12 bob` or `1e9` is refused, not read as game 12 or 1.
pub fn parse_game_ref(text: &str) -> Result<i64, Refusal> {
    let t = text.trim();
    let t = t.strip_prefix('#').unwrap_or(t);
    Some(t)
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse::<i64>().ok())
        .filter(|&id| id > 0)
        .ok_or_else(|| {
            Refusal::new(text!(
                "not-a-game-number",
                input = crate::i18n::excerpt(text)
            ))
        })
}

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A move typed or picked with its game in front (`#12 0,1`, as suggestions covering several
/// games send it): the game and the move; otherwise no game and the text as it is.
pub fn split_game_prefix(text: &str) -> (Option<i64>, &str) {
    let t = text.trim();
    let Some(rest) = t.strip_prefix('#') else {
        return (None, t);
    };
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    match (
        rest[..digits].parse::<i64>(),
        rest[digits..].strip_prefix(' '),
    ) {
        (Ok(id), Some(mv)) if id > 0 && !mv.trim().is_empty() => (Some(id), mv.trim()),
        _ => (None, t),
    }
}

/// A move offered to a player: its notation (what is played) and the same move in words.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Suggestion {
    pub notation: String,
    pub words: String,
}

/// Legal moves matching what has been typed, in notation or (from three letters on) in words
/// (spaces and case ignored), at most `limit`, the most useful first: moves that win at once, then those starting
/// with the text, then shorter ones.
pub fn suggest_moves(lang: Lang, game: &Game, typed: &str, limit: usize) -> Vec<Suggestion> {
    let typed = squash(typed);
    let mover = game.position().to_move();
    let position = game.position();
    // (wins at once, starts with the text, move, notation, words when already made)
    let mut found: Vec<(bool, bool, Move, String, Option<String>)> = game
        .legal_moves()
        .into_iter()
        .filter_map(|m| {
            let notation = m.to_string();
            let key = squash(&notation);
            let prefix = key.starts_with(&typed);
            if prefix || key.contains(&typed) {
                return Some((false, prefix, m, notation, None));
            }
            // Words are searched once the text is long enough to mean something in them.
            if typed.chars().count() < 3 {
                return None;
            }
            let words = describe(lang, position, &m);
            squash(&words)
                .contains(&typed)
                .then_some((false, false, m, notation, Some(words)))
        })
        .take(2000)
        .collect();
    // Looking for immediate wins costs one replay per move: only when the list is small enough.
    if found.len() <= 400 {
        for entry in &mut found {
            let mut next = game.clone();
            entry.0 = next.play(entry.2).is_ok()
                && next.outcome().is_some_and(|o| o.winner == Some(mover));
        }
    }
    found.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(b.1.cmp(&a.1))
            .then(a.3.len().cmp(&b.3.len()))
            .then(a.3.cmp(&b.3))
    });
    // Words (which replay some moves) only for the suggestions shown.
    found
        .into_iter()
        .take(limit)
        .map(|(_, _, m, notation, words)| Suggestion {
            words: words.unwrap_or_else(|| describe(lang, position, &m)),
            notation,
        })
        .collect()
}

/// May this member abort games? Moderators are those with Manage Server.
pub fn may_abort(manage_guild: bool, row: &GameRow, guild: Option<GuildId>) -> Result<(), Refusal> {
    if !manage_guild {
        return Err(Refusal::new(text!("abort-moderators-only")));
    }
    if row.guild_id != guild || guild.is_none() {
        return Err(Refusal::new(text!(
            "game-not-in-this-server",
            game = row.id
        )));
    }
    if row.status != GameStatus::Active {
        return Err(Refusal::new(text!("game-already-over", game = row.id)));
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::db::ChannelId;
    use crate::games::{GameKind, Options};

    pub(crate) fn row(status: GameStatus) -> GameRow {
        GameRow {
            id: 3,
            guild_id: Some(GuildId(1)),
            channel_id: ChannelId(2),
            options: Options::parse_line("inphexion size=7").unwrap(),
            players: [UserId(10), UserId(20)],
            rated: false,
            status,
            result: None,
            winner_id: None,
            board_message_id: None,
            version: 0,
            revision: 0,
            created_at: 0,
            updated_at: 0,
            finished_at: None,
            seconds_per_move: 86400,
            deadline_at: Some(86400),
            reminders_sent: 0,
            to_move: Some(UserId(10)),
            delivery_fault: None,
            thread_id: None,
            clock: None,
        }
    }

    #[test]
    fn outsiders_and_finished_games_are_refused() {
        assert!(check_player(&row(GameStatus::Active), UserId(10)).is_ok());
        assert!(check_player(&row(GameStatus::Active), UserId(30))
            .unwrap_err()
            .0
            .render(crate::i18n::Lang::EN)
            .contains("not yours"));
        assert!(check_player(&row(GameStatus::Finished), UserId(10))
            .unwrap_err()
            .0
            .render(crate::i18n::Lang::EN)
            .contains("over"));
    }

    #[test]
    fn the_game_meant_is_chosen_or_asked_for() {
        let mut a = row(GameStatus::Active);
        a.id = 4;
        let b = row(GameStatus::Active);
        let games = vec![a, b];
        let never = |_: &GameRow| false;
        let only3 = |g: &GameRow| g.id == 3;
        assert!(choose_game(&[], None, &never)
            .unwrap_err()
            .0
            .render(crate::i18n::Lang::EN)
            .contains("/challenge"));
        assert_eq!(choose_game(&games[..1], None, &never).unwrap().id, 4);
        assert!(choose_game(&games, None, &never)
            .unwrap_err()
            .0
            .render(crate::i18n::Lang::EN)
            .contains("#4, #3"));
        assert_eq!(choose_game(&games, None, &only3).unwrap().id, 3);
        assert_eq!(choose_game(&games, Some(4), &never).unwrap().id, 4);
        assert!(choose_game(&games, Some(5), &never).is_err());
    }

    #[test]
    fn game_references_read_with_or_without_hash() {
        assert_eq!(parse_game_ref("#12"), Ok(12));
        assert_eq!(parse_game_ref(" 7 "), Ok(7));
        // A whole number or nothing: never the digits before a letter.
        for bad in [
            "12 inpHeXion vs ann",
            "1e9",
            "12abc",
            "+3",
            "-4",
            "",
            "#",
            "99999999999999999999",
        ] {
            assert!(parse_game_ref(bad).is_err(), "{bad}");
        }
        // The refusal quotes a short prefix of what was typed.
        let long = "7".repeat(20) + &"x".repeat(3000);
        let Err(Refusal(t)) = parse_game_ref(&long) else {
            panic!("a long input is refused");
        };
        assert!(t.render(crate::i18n::Lang::EN).chars().count() < 200);
        assert!(parse_game_ref("abc").is_err());
        assert!(parse_game_ref("#0").is_err());
    }

    #[test]
    fn aborting_needs_manage_server_and_this_server() {
        let r = row(GameStatus::Active);
        assert!(may_abort(true, &r, Some(GuildId(1))).is_ok());
        assert!(may_abort(false, &r, Some(GuildId(1))).is_err());
        assert!(may_abort(true, &r, Some(GuildId(2))).is_err());
        assert!(may_abort(true, &row(GameStatus::Aborted), Some(GuildId(1))).is_err());
    }

    fn inphexion(words: &[&str]) -> Game {
        Game::new(Options::parse(GameKind::Inphexion, words).unwrap())
    }

    #[test]
    fn after_a_pie_swap_the_players_exchange_colours() {
        let r = row(GameStatus::Active);
        let mut g = inphexion(&["size=5", "pie"]);
        assert_eq!(player_to_move(&r, &g), UserId(10));
        g.play_text("c3").unwrap();
        assert_eq!(player_to_move(&r, &g), UserId(20));
        g.play_text("swap").unwrap();
        assert!(swapped(&g));
        // The swapper now holds the first colour; the other player moves next.
        assert_eq!(player_of(&r, &g, Colour::First), UserId(20));
        assert_eq!(colour_of(&r, &g, UserId(10)), Some(Colour::Second));
        assert_eq!(player_to_move(&r, &g), UserId(10));
        assert!(check_may_move(&r, &g, UserId(20))
            .unwrap_err()
            .0
            .render(crate::i18n::Lang::EN)
            .contains("not your turn"));
        assert!(check_may_move(&r, &g, UserId(10)).is_ok());
    }

    #[test]
    fn a_game_in_front_of_a_move_is_read() {
        assert_eq!(split_game_prefix("#12 0,1"), (Some(12), "0,1"));
        assert_eq!(
            split_game_prefix(" #7 c3-d3 e5>a1 "),
            (Some(7), "c3-d3 e5>a1")
        );
        for plain in ["0,1", "#12", "#x 0,1", "#0 c3", "# 12 c3", "#12  "] {
            assert_eq!(split_game_prefix(plain).0, None, "{plain}");
        }
    }

    #[test]
    fn suggestions_are_legal_and_follow_the_typed_text() {
        let g = inphexion(&["size=5"]);
        let legal = g.legal_notations();
        let all = suggest_moves(Lang::EN, &g, "", 25);
        assert_eq!(all.len(), 25.min(legal.len()));
        assert!(all.iter().all(|m| legal.contains(&m.notation)));
        let c = suggest_moves(Lang::EN, &g, " C", 25);
        assert!(
            !c.is_empty() && c.iter().all(|m| m.notation.starts_with('c')),
            "{c:?}"
        );
        let c3 = suggest_moves(Lang::EN, &g, "C 3", 25);
        assert_eq!(c3.first().map(|s| s.notation.as_str()), Some("c3"));
        assert_eq!(c3[0].words, "Place a disc on c3");
        // Words find moves too.
        let by_words = suggest_moves(Lang::EN, &g, "place a disc on e5", 25);
        assert_eq!(by_words.first().map(|s| s.notation.as_str()), Some("e5"));
        assert!(suggest_moves(Lang::EN, &g, "zz", 25).is_empty());
    }

    #[test]
    fn a_move_after_the_deadline_is_refused() {
        let r = row(GameStatus::Active);
        assert!(check_in_time(&r, 86399).is_ok());
        assert!(check_in_time(&r, 86400)
            .unwrap_err()
            .0
            .render(crate::i18n::Lang::EN)
            .contains("lost on time"));
    }
}
