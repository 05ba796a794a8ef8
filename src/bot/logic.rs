//! The bot's decisions, as plain functions that tests call without Discord: who may do what,
//! which game a command means, which moves to suggest, and the `custom_id` codec of buttons.

use crate::db::{Challenge, ChallengeStatus, Finish, GameRow, GameStatus};
use crate::games::{Colour, Game, GameKind, Options};

/// A user mistake, answered privately with what to do instead.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Refusal(pub String);

impl Refusal {
    pub fn new(text: impl Into<String>) -> Refusal {
        Refusal(text.into())
    }
}

/// A mention of a user.
pub fn mention(user: u64) -> String {
    format!("<@{user}>")
}

/// How long an open challenge waits for an answer.
pub const CHALLENGE_TTL_SECS: i64 = 24 * 3600;

pub const DAY: i64 = 24 * 3600;

/// The time per move when the challenge does not choose one.
pub const DEFAULT_DAYS_PER_MOVE: i64 = 3;

/// Vacation days a player may take in any 365 days.
pub const VACATION_DAYS_PER_YEAR: i64 = 30;

/// When the player to move loses on time after a move at `now`: a full turn, counted from the
/// end of their vacation when they are away.
pub fn deadline_after(now: i64, seconds_per_move: i64, vacation_until: Option<i64>) -> i64 {
    vacation_until.map_or(now, |v| v.max(now)) + seconds_per_move
}

/// When the second reminder of a turn is due: a quarter of the time per move before the
/// deadline, at most a day before it.
pub fn last_reminder_before(seconds_per_move: i64) -> i64 {
    (seconds_per_move / 4).min(DAY)
}

/// Which reminder is due with `left` seconds to the deadline and `sent` already sent this turn:
/// the new count of reminders sent, or `None`. The first comes when half the time is left, the
/// second near the end; a bot that was down past both sends only the second.
pub fn reminder_due(seconds_per_move: i64, left: i64, sent: i64) -> Option<i64> {
    if left <= 0 {
        return None;
    }
    if sent < 2 && left <= last_reminder_before(seconds_per_move) {
        return Some(2);
    }
    if sent < 1 && left <= seconds_per_move / 2 {
        return Some(1);
    }
    None
}

/// A time left, for people: `2 d 5 h`, `5 h 12 min`, `12 min`.
pub fn format_left(seconds: i64) -> String {
    if seconds <= 0 {
        return "no time left".to_string();
    }
    let (d, h, m) = (seconds / DAY, seconds % DAY / 3600, seconds % 3600 / 60);
    match (d, h, m) {
        (0, 0, 0) => "less than a minute".to_string(),
        (0, 0, m) => format!("{m} min"),
        (0, h, m) => format!("{h} h {m} min"),
        (d, 0, _) => format!("{d} d"),
        (d, h, _) => format!("{d} d {h} h"),
    }
}

/// May a player start a vacation of `days` at `now`? `away_until` is the end of a vacation
/// running now, `used_days` what they took in the last 365 days.
pub fn check_vacation(days: i64, away_until: Option<i64>, used_days: i64) -> Result<(), Refusal> {
    if let Some(until) = away_until {
        return Err(Refusal::new(format!(
            "You are already on vacation until <t:{until}:f>. Take another one when it is over."
        )));
    }
    let left = (VACATION_DAYS_PER_YEAR - used_days).max(0);
    if days < 1 || days > left {
        return Err(Refusal::new(format!(
            "You can take 1 to {left} days of vacation now ({VACATION_DAYS_PER_YEAR} days in any 365; you took {used_days})."
        )));
    }
    Ok(())
}

/// Rows per leaderboard page.
pub const LEADERBOARD_PAGE: i64 = 10;

/// The offset of page `page` (from 1) of a table of `total` rows, and the number of pages.
pub fn leaderboard_page(total: i64, page: i64) -> Result<(i64, i64), Refusal> {
    let pages = ((total + LEADERBOARD_PAGE - 1) / LEADERBOARD_PAGE).max(1);
    if page < 1 || page > pages {
        return Err(Refusal::new(format!(
            "The table has {pages} page{}: pick a `page` from 1 to {pages}.",
            if pages == 1 { "" } else { "s" }
        )));
    }
    Ok(((page - 1) * LEADERBOARD_PAGE, pages))
}

/// How a game ends when the player to move runs out of time.
pub fn finish_by_timeout(row: &GameRow, game: &Game) -> Finish {
    let loser = game.position().to_move();
    let outcome = crate::games::Outcome::win(loser.other(), crate::games::Reason::Timeout);
    Finish {
        status: GameStatus::Finished,
        result: outcome.describe(game.kind()),
        winner_id: Some(player_of(row, game, loser.other())),
    }
}

/// Buttons, and what their `custom_id` says. The id carries all the state the press needs, so a
/// button keeps working after a restart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Component {
    Accept(i64),
    Decline(i64),
    Withdraw(i64),
    Resign(i64),
    KeepPlaying(i64),
}

impl Component {
    pub fn encode(self) -> String {
        let (verb, id) = match self {
            Component::Accept(id) => ("accept", id),
            Component::Decline(id) => ("decline", id),
            Component::Withdraw(id) => ("withdraw", id),
            Component::Resign(id) => ("resign", id),
            Component::KeepPlaying(id) => ("keep", id),
        };
        format!("hx:{verb}:{id}")
    }

    /// `None` for an id this bot did not make.
    pub fn parse(custom_id: &str) -> Option<Component> {
        let mut parts = custom_id.split(':');
        if parts.next()? != "hx" {
            return None;
        }
        let verb = parts.next()?;
        let id: i64 = parts.next()?.parse().ok()?;
        if parts.next().is_some() || id <= 0 {
            return None;
        }
        Some(match verb {
            "accept" => Component::Accept(id),
            "decline" => Component::Decline(id),
            "withdraw" => Component::Withdraw(id),
            "resign" => Component::Resign(id),
            "keep" => Component::KeepPlaying(id),
            _ => return None,
        })
    }
}

/// The options a `/challenge` gave, before checking them against the rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChosenOptions {
    pub size: Option<i64>,
    pub pie: Option<bool>,
    pub free_reply: Option<bool>,
    pub neutral: Option<bool>,
    pub tiles: Option<i64>,
    pub expert: Option<bool>,
}

/// The game's options from the choices made, refused with the rules' reason when they do not
/// fit the game.
pub fn build_options(kind: GameKind, chosen: &ChosenOptions) -> Result<Options, Refusal> {
    let mut words: Vec<String> = Vec::new();
    let foreign = |name: &str| {
        Refusal::new(format!(
            "`{name}` is not an option of {}: leave it out, or pick the other game.",
            kind.title()
        ))
    };
    match kind {
        GameKind::Inphexion => {
            if chosen.tiles.is_some() {
                return Err(foreign("tiles"));
            }
            if chosen.expert.is_some() {
                return Err(foreign("expert"));
            }
            if let Some(s) = chosen.size {
                words.push(format!("size={s}"));
            }
            if chosen.free_reply == Some(true) {
                words.push("free-reply".into());
            }
            if chosen.neutral == Some(true) {
                words.push("neutral".into());
            }
        }
        GameKind::Exxit => {
            if chosen.size.is_some() {
                return Err(foreign("size"));
            }
            if chosen.free_reply.is_some() {
                return Err(foreign("free_reply"));
            }
            if chosen.neutral.is_some() {
                return Err(foreign("neutral"));
            }
            if let Some(t) = chosen.tiles {
                words.push(format!("tiles={t}"));
            }
            if chosen.expert == Some(true) {
                words.push("expert".into());
            }
        }
    }
    if chosen.pie == Some(true) {
        words.push("pie".into());
    }
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    Options::parse(kind, &refs).map_err(|e| {
        Refusal::new(format!(
            "Those options do not fit {}: {e}. See `/rules {}`.",
            kind.title(),
            kind.name()
        ))
    })
}

/// May `challenger` challenge `opponent`? `duplicate` is an open challenge already made for the
/// same pair and variant.
pub fn check_challenge(
    challenger: u64,
    opponent: u64,
    opponent_is_bot: bool,
    duplicate: Option<&Challenge>,
) -> Result<(), Refusal> {
    if challenger == opponent {
        return Err(Refusal::new(
            "You cannot challenge yourself: pick another member as `opponent`.",
        ));
    }
    if opponent_is_bot {
        return Err(Refusal::new(
            "Bots cannot accept challenges: pick a human member as `opponent`.",
        ));
    }
    if let Some(c) = duplicate {
        return Err(Refusal::new(format!(
            "You already challenged {} to this game (challenge #{}): wait for an answer, or withdraw it first.",
            mention(opponent),
            c.id
        )));
    }
    Ok(())
}

/// What a button does to a challenge.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ChallengeAnswer {
    Accept,
    Decline,
    Withdraw,
}

/// May `user` answer the challenge so at time `now`? `Err` says why not. An expired challenge
/// gives [`ChallengeStatus::Expired`] as the status to store.
pub fn check_challenge_answer(
    c: &Challenge,
    user: u64,
    answer: ChallengeAnswer,
    now: i64,
) -> Result<(), (Refusal, Option<ChallengeStatus>)> {
    if c.status != ChallengeStatus::Open {
        return Err((
            Refusal::new(format!(
                "This challenge is no longer open (it was {}).",
                c.status.as_str()
            )),
            None,
        ));
    }
    match answer {
        ChallengeAnswer::Accept | ChallengeAnswer::Decline if user != c.opponent_id => {
            return Err((
                Refusal::new(format!(
                    "This challenge is for {}. To play yourself, use `/challenge`.",
                    mention(c.opponent_id)
                )),
                None,
            ))
        }
        ChallengeAnswer::Withdraw if user != c.challenger_id => {
            return Err((
                Refusal::new("Only the member who made this challenge can withdraw it."),
                None,
            ))
        }
        _ => {}
    }
    if now >= c.expires_at {
        return Err((
            Refusal::new("This challenge has expired: make a new one with `/challenge`."),
            Some(ChallengeStatus::Expired),
        ));
    }
    Ok(())
}

/// Whether the players have exchanged colours (an odd number of pie swaps).
pub fn swapped(game: &Game) -> bool {
    game.moves()
        .iter()
        .filter(|m| m.to_string() == "swap")
        .count()
        % 2
        == 1
}

/// The player holding `colour` now.
pub fn player_of(row: &GameRow, game: &Game, colour: Colour) -> u64 {
    row.players[colour.index() ^ usize::from(swapped(game))]
}

/// The colour `user` holds now, if they play in this game.
pub fn colour_of(row: &GameRow, game: &Game, user: u64) -> Option<Colour> {
    Colour::BOTH
        .into_iter()
        .find(|&c| player_of(row, game, c) == user)
}

/// The player to move.
pub fn player_to_move(row: &GameRow, game: &Game) -> u64 {
    player_of(row, game, game.position().to_move())
}

/// Refuses a user who may not act in this game: not active, or not a player.
pub fn check_player(row: &GameRow, user: u64) -> Result<(), Refusal> {
    if row.status != GameStatus::Active {
        return Err(Refusal::new(format!(
            "Game #{} is over ({}). Start a new one with `/challenge`.",
            row.id,
            row.result.as_deref().unwrap_or(row.status.as_str())
        )));
    }
    if !row.players.contains(&user) {
        return Err(Refusal::new(format!(
            "Game #{} is not yours: it is between {} and {}. Use `/games` to see your own.",
            row.id,
            mention(row.players[0]),
            mention(row.players[1])
        )));
    }
    Ok(())
}

/// May `user` move now?
pub fn check_may_move(row: &GameRow, game: &Game, user: u64) -> Result<(), Refusal> {
    check_player(row, user)?;
    let to_move = player_to_move(row, game);
    if to_move != user {
        return Err(Refusal::new(format!(
            "It is not your turn in game #{}: {} ({}) is to move. You will be mentioned when it is your turn.",
            row.id,
            mention(to_move),
            game.kind().colour_name(game.position().to_move())
        )));
    }
    Ok(())
}

/// Is there time left for a move at `now`? After the deadline the game is lost on time (the
/// timer task ends it at its next scan); a move arriving in between is refused.
pub fn check_in_time(row: &GameRow, now: i64) -> Result<(), Refusal> {
    match row.deadline_at {
        Some(d) if now >= d => Err(Refusal::new(format!(
            "The time for this move in game #{} ran out <t:{d}:R>: the game is lost on time.",
            row.id
        ))),
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
        return games.iter().find(|g| g.id == id).ok_or_else(|| {
            Refusal::new(format!(
                "You have no active game #{id} in this channel. `/games` lists yours."
            ))
        });
    }
    match games {
        [] => Err(Refusal::new(
            "You have no active game in this channel. Start one with `/challenge`, or see `/games`.",
        )),
        [one] => Ok(one),
        many => {
            let mine: Vec<&GameRow> = many.iter().filter(|g| my_turn(g)).collect();
            if let [one] = mine.as_slice() {
                return Ok(one);
            }
            let ids: Vec<String> = many.iter().map(|g| format!("#{}", g.id)).collect();
            Err(Refusal::new(format!(
                "You have several games in this channel ({}): add the `game` option to say which.",
                ids.join(", ")
            )))
        }
    }
}

/// Reads a game reference typed or chosen by a user: `12` or `#12`.
pub fn parse_game_ref(text: &str) -> Result<i64, Refusal> {
    let t = text.trim().trim_start_matches('#');
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits
        .parse::<i64>()
        .ok()
        .filter(|&id| id > 0)
        .ok_or_else(|| {
            Refusal::new(format!(
                "`{}` is not a game number: pick one of the suggestions, or see `/games`.",
                text.trim()
            ))
        })
}

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Legal moves matching what has been typed (spaces and case ignored), at most `limit`, the most
/// useful first: moves that win at once, then those starting with the text, then shorter ones.
pub fn suggest_moves(game: &Game, typed: &str, limit: usize) -> Vec<String> {
    let typed = squash(typed);
    let mover = game.position().to_move();
    let mut found: Vec<(bool, bool, String)> = game
        .legal_notations()
        .into_iter()
        .filter_map(|n| {
            let key = squash(&n);
            if key.starts_with(&typed) {
                Some((true, n))
            } else if key.contains(&typed) {
                Some((false, n))
            } else {
                None
            }
        })
        .map(|(prefix, n)| (false, prefix, n))
        .collect();
    // Looking for immediate wins costs one replay per move: only when the list is small enough.
    if found.len() <= 400 {
        for entry in &mut found {
            let mut next = game.clone();
            entry.0 = next.play_text(&entry.2).is_ok()
                && next.outcome().is_some_and(|o| o.winner == Some(mover));
        }
    }
    found.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(b.1.cmp(&a.1))
            .then(a.2.len().cmp(&b.2.len()))
            .then(a.2.cmp(&b.2))
    });
    found.into_iter().take(limit).map(|(_, _, n)| n).collect()
}

/// How the game stands after a move: `Some` when it has just ended.
pub fn finish_after_move(row: &GameRow, game: &Game) -> Option<Finish> {
    let outcome = game.outcome()?;
    Some(Finish {
        status: GameStatus::Finished,
        result: outcome.describe(game.kind()),
        winner_id: outcome.winner.map(|c| player_of(row, game, c)),
    })
}

/// How the game ends when `user` resigns.
pub fn finish_by_resignation(row: &GameRow, game: &Game, user: u64) -> Option<Finish> {
    let loser = colour_of(row, game, user)?;
    let outcome = crate::games::Outcome::win(loser.other(), crate::games::Reason::Resignation);
    Some(Finish {
        status: GameStatus::Finished,
        result: outcome.describe(game.kind()),
        winner_id: Some(player_of(row, game, loser.other())),
    })
}

/// May this member abort games? Moderators are those with Manage Server.
pub fn may_abort(manage_guild: bool, row: &GameRow, guild: Option<u64>) -> Result<(), Refusal> {
    if !manage_guild {
        return Err(Refusal::new(
            "Only moderators (Manage Server) can abort a game. A player can `/resign`.",
        ));
    }
    if row.guild_id != guild || guild.is_none() {
        return Err(Refusal::new(format!(
            "Game #{} is not in this server.",
            row.id
        )));
    }
    if row.status != GameStatus::Active {
        return Err(Refusal::new(format!("Game #{} is already over.", row.id)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(status: GameStatus) -> GameRow {
        GameRow {
            id: 3,
            guild_id: Some(1),
            channel_id: 2,
            options: "inphexion size=7".into(),
            players: [10, 20],
            rated: false,
            status,
            result: None,
            winner_id: None,
            board_message_id: None,
            version: 0,
            created_at: 0,
            updated_at: 0,
            finished_at: None,
            kind: "inphexion".into(),
            seconds_per_move: 86400,
            deadline_at: Some(86400),
            reminders_sent: 0,
        }
    }

    fn challenge(status: ChallengeStatus) -> Challenge {
        Challenge {
            id: 9,
            guild_id: Some(1),
            channel_id: 2,
            challenger_id: 10,
            opponent_id: 20,
            options: "exxit tiles=39".into(),
            rated: false,
            status,
            message_id: None,
            game_id: None,
            created_at: 0,
            expires_at: 100,
            seconds_per_move: 86400,
        }
    }

    #[test]
    fn custom_ids_round_trip_and_foreign_ids_are_ignored() {
        for c in [
            Component::Accept(1),
            Component::Decline(22),
            Component::Withdraw(333),
            Component::Resign(i64::MAX),
            Component::KeepPlaying(5),
        ] {
            assert_eq!(Component::parse(&c.encode()), Some(c));
        }
        assert_eq!(Component::Accept(7).encode(), "hx:accept:7");
        for bad in [
            "",
            "hx",
            "hx:accept",
            "hx:accept:x",
            "hx:accept:0",
            "hx:accept:-1",
            "hx:fly:3",
            "xx:accept:3",
            "hx:accept:3:4",
        ] {
            assert_eq!(Component::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn challenges_to_oneself_bots_and_twice_are_refused() {
        assert!(check_challenge(1, 1, false, None)
            .unwrap_err()
            .0
            .contains("yourself"));
        assert!(check_challenge(1, 2, true, None)
            .unwrap_err()
            .0
            .contains("Bots"));
        let open = challenge(ChallengeStatus::Open);
        assert!(check_challenge(10, 20, false, Some(&open))
            .unwrap_err()
            .0
            .contains("#9"));
        assert_eq!(check_challenge(1, 2, false, None), Ok(()));
    }

    #[test]
    fn only_the_right_member_answers_a_challenge() {
        let c = challenge(ChallengeStatus::Open);
        assert!(check_challenge_answer(&c, 20, ChallengeAnswer::Accept, 50).is_ok());
        assert!(check_challenge_answer(&c, 20, ChallengeAnswer::Decline, 50).is_ok());
        assert!(check_challenge_answer(&c, 10, ChallengeAnswer::Withdraw, 50).is_ok());
        assert!(check_challenge_answer(&c, 10, ChallengeAnswer::Accept, 50).is_err());
        assert!(check_challenge_answer(&c, 30, ChallengeAnswer::Decline, 50).is_err());
        assert!(check_challenge_answer(&c, 20, ChallengeAnswer::Withdraw, 50).is_err());
        let (_, store) = check_challenge_answer(&c, 20, ChallengeAnswer::Accept, 100).unwrap_err();
        assert_eq!(store, Some(ChallengeStatus::Expired));
        let closed = challenge(ChallengeStatus::Declined);
        let (why, store) =
            check_challenge_answer(&closed, 20, ChallengeAnswer::Accept, 50).unwrap_err();
        assert!(why.0.contains("declined"));
        assert_eq!(store, None);
    }

    #[test]
    fn outsiders_and_finished_games_are_refused() {
        assert!(check_player(&row(GameStatus::Active), 10).is_ok());
        assert!(check_player(&row(GameStatus::Active), 30)
            .unwrap_err()
            .0
            .contains("not yours"));
        assert!(check_player(&row(GameStatus::Finished), 10)
            .unwrap_err()
            .0
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
            .contains("/challenge"));
        assert_eq!(choose_game(&games[..1], None, &never).unwrap().id, 4);
        assert!(choose_game(&games, None, &never)
            .unwrap_err()
            .0
            .contains("#4, #3"));
        assert_eq!(choose_game(&games, None, &only3).unwrap().id, 3);
        assert_eq!(choose_game(&games, Some(4), &never).unwrap().id, 4);
        assert!(choose_game(&games, Some(5), &never).is_err());
    }

    #[test]
    fn game_references_read_with_or_without_hash() {
        assert_eq!(parse_game_ref("#12"), Ok(12));
        assert_eq!(parse_game_ref(" 7 "), Ok(7));
        assert_eq!(parse_game_ref("12 inpHeXion vs ann"), Ok(12));
        assert!(parse_game_ref("abc").is_err());
        assert!(parse_game_ref("#0").is_err());
    }

    #[test]
    fn options_of_the_other_game_are_refused_before_the_rules_see_them() {
        let tiles = ChosenOptions {
            tiles: Some(29),
            ..Default::default()
        };
        assert!(build_options(GameKind::Inphexion, &tiles)
            .unwrap_err()
            .0
            .contains("tiles"));
        let size = ChosenOptions {
            size: Some(7),
            ..Default::default()
        };
        assert!(build_options(GameKind::Exxit, &size)
            .unwrap_err()
            .0
            .contains("size"));
    }

    #[test]
    fn aborting_needs_manage_server_and_this_server() {
        let r = row(GameStatus::Active);
        assert!(may_abort(true, &r, Some(1)).is_ok());
        assert!(may_abort(false, &r, Some(1)).is_err());
        assert!(may_abort(true, &r, Some(2)).is_err());
        assert!(may_abort(true, &row(GameStatus::Aborted), Some(1)).is_err());
    }

    fn inphexion(words: &[&str]) -> Game {
        Game::new(Options::parse(GameKind::Inphexion, words).unwrap())
    }

    #[test]
    fn valid_choices_become_the_variant_line() {
        let inph = ChosenOptions {
            size: Some(5),
            pie: Some(true),
            ..Default::default()
        };
        assert_eq!(
            build_options(GameKind::Inphexion, &inph)
                .unwrap()
                .to_string(),
            "inphexion size=5 pie"
        );
        let exxit = ChosenOptions {
            tiles: Some(19),
            ..Default::default()
        };
        assert_eq!(
            build_options(GameKind::Exxit, &exxit).unwrap().to_string(),
            "exxit tiles=19"
        );
        let even_neutral = ChosenOptions {
            size: Some(6),
            neutral: Some(true),
            ..Default::default()
        };
        let why = build_options(GameKind::Inphexion, &even_neutral).unwrap_err();
        assert!(why.0.contains("do not fit"), "{why:?}");
    }

    #[test]
    fn after_a_pie_swap_the_players_exchange_colours() {
        let r = row(GameStatus::Active);
        let mut g = inphexion(&["size=5", "pie"]);
        assert_eq!(player_to_move(&r, &g), 10);
        g.play_text("c3").unwrap();
        assert_eq!(player_to_move(&r, &g), 20);
        g.play_text("swap").unwrap();
        assert!(swapped(&g));
        // The swapper now holds the first colour; the other player moves next.
        assert_eq!(player_of(&r, &g, Colour::First), 20);
        assert_eq!(colour_of(&r, &g, 10), Some(Colour::Second));
        assert_eq!(player_to_move(&r, &g), 10);
        assert!(check_may_move(&r, &g, 20)
            .unwrap_err()
            .0
            .contains("not your turn"));
        assert!(check_may_move(&r, &g, 10).is_ok());
    }

    #[test]
    fn suggestions_are_legal_and_follow_the_typed_text() {
        let g = inphexion(&["size=5"]);
        let legal = g.legal_notations();
        let all = suggest_moves(&g, "", 25);
        assert_eq!(all.len(), 25.min(legal.len()));
        assert!(all.iter().all(|m| legal.contains(m)));
        let c = suggest_moves(&g, " C", 25);
        assert!(
            !c.is_empty() && c.iter().all(|m| m.starts_with('c')),
            "{c:?}"
        );
        assert_eq!(
            suggest_moves(&g, "C 3", 25).first().map(String::as_str),
            Some("c3")
        );
        assert!(suggest_moves(&g, "zz", 25).is_empty());
    }

    #[test]
    fn resigning_gives_the_game_to_the_other_player() {
        let r = row(GameStatus::Active);
        let mut g = inphexion(&["size=5"]);
        g.play_text("c3").unwrap();
        let f = finish_by_resignation(&r, &g, 10).unwrap();
        assert_eq!(f.winner_id, Some(20));
        assert_eq!(f.result, "black wins: resignation");
        assert!(finish_by_resignation(&r, &g, 30).is_none());
        assert!(finish_after_move(&r, &g).is_none());
    }

    #[test]
    fn reminders_come_at_half_time_and_near_the_end_once_each() {
        let day = DAY;
        assert_eq!(reminder_due(day, 13 * 3600, 0), None);
        assert_eq!(reminder_due(day, 12 * 3600, 0), Some(1));
        assert_eq!(reminder_due(day, 12 * 3600, 1), None);
        assert_eq!(reminder_due(day, 6 * 3600, 1), Some(2));
        assert_eq!(reminder_due(day, 6 * 3600, 2), None);
        // Down past both: only the second.
        assert_eq!(reminder_due(day, 3600, 0), Some(2));
        assert_eq!(reminder_due(day, 0, 0), None);
        assert_eq!(last_reminder_before(14 * day), day);
        assert_eq!(last_reminder_before(3 * day), 18 * 3600);
    }

    #[test]
    fn deadlines_wait_for_the_end_of_a_vacation() {
        assert_eq!(deadline_after(100, 50, None), 150);
        assert_eq!(deadline_after(100, 50, Some(400)), 450);
        assert_eq!(deadline_after(100, 50, Some(20)), 150);
    }

    #[test]
    fn times_left_read_naturally() {
        assert_eq!(format_left(2 * DAY + 5 * 3600 + 7), "2 d 5 h");
        assert_eq!(format_left(3 * DAY), "3 d");
        assert_eq!(format_left(5 * 3600 + 12 * 60), "5 h 12 min");
        assert_eq!(format_left(12 * 60 + 5), "12 min");
        assert_eq!(format_left(30), "less than a minute");
        assert_eq!(format_left(-5), "no time left");
    }

    #[test]
    fn vacations_have_a_yearly_limit() {
        assert!(check_vacation(7, None, 0).is_ok());
        assert!(check_vacation(30, None, 0).is_ok());
        assert!(check_vacation(31, None, 0)
            .unwrap_err()
            .0
            .contains("1 to 30"));
        assert!(check_vacation(5, None, 26)
            .unwrap_err()
            .0
            .contains("1 to 4"));
        assert!(check_vacation(0, None, 0).is_err());
        assert!(check_vacation(1, Some(500), 0)
            .unwrap_err()
            .0
            .contains("already on vacation"));
    }

    #[test]
    fn leaderboard_pages() {
        assert_eq!(leaderboard_page(0, 1), Ok((0, 1)));
        assert_eq!(leaderboard_page(10, 1), Ok((0, 1)));
        assert_eq!(leaderboard_page(11, 2), Ok((10, 2)));
        assert!(leaderboard_page(11, 3).unwrap_err().0.contains("1 to 2"));
        assert!(leaderboard_page(11, 0).is_err());
    }

    #[test]
    fn a_move_after_the_deadline_is_refused() {
        let r = row(GameStatus::Active);
        assert!(check_in_time(&r, 86399).is_ok());
        assert!(check_in_time(&r, 86400)
            .unwrap_err()
            .0
            .contains("lost on time"));
    }

    #[test]
    fn running_out_of_time_loses() {
        let r = row(GameStatus::Active);
        let mut g = inphexion(&["size=5"]);
        g.play_text("c3").unwrap();
        let f = finish_by_timeout(&r, &g);
        assert_eq!(f.winner_id, Some(10));
        assert_eq!(f.result, "white wins: timeout");
    }
}
