//! Members at play: challenges and their answers, games against the bot, moves by `/move`,
//! races, resignations, and refusals that must change nothing.

use serde_json::{json, Value};

use super::{
    components_of, member, parse_state, users_of, Discord, GameState, Member, Pressable, CAT,
};
use crate::server::{Recorded, BOT_ID};

impl Discord {
    /// A command that must be refused privately, naming `needle`, and change nothing.
    pub async fn refused(&self, who: &Member, name: &str, options: Vec<Value>, needle: &str) {
        self.refused_with(who, name, options, &[], needle).await
    }

    async fn refused_with(
        &self,
        who: &Member,
        name: &str,
        options: Vec<Value>,
        users: &[&Member],
        needle: &str,
    ) {
        let before = self.snapshot().await;
        let ans = self.command_with(who, name, options, users).await;
        assert!(
            ans.ephemeral,
            "/{name} by {} should be private: {ans:?}",
            who.name
        );
        assert!(
            ans.content.to_lowercase().contains(&needle.to_lowercase()),
            "/{name} by {}: expected `{needle}` in {:?}",
            who.name,
            ans.content
        );
        assert_eq!(
            self.snapshot().await,
            before,
            "/{name} by {} changed the database",
            who.name
        );
    }

    fn challenge_options(opponent: &Member, kind: &str, extra: &[Value]) -> Vec<Value> {
        let game = if kind == "exxit" { 1 } else { 0 };
        let mut o = vec![
            json!({"name": "opponent", "type": 6, "value": opponent.id.to_string()}),
            json!({"name": "game", "type": 4, "value": game}),
        ];
        o.extend(extra.iter().cloned());
        o
    }

    pub async fn refused_challenge(
        &self,
        who: &Member,
        opponent: &Member,
        kind: &str,
        extra: &[Value],
        needle: &str,
    ) {
        let options = Self::challenge_options(opponent, kind, extra);
        self.refused_with(who, "challenge", options, &[opponent], needle)
            .await
    }

    pub async fn challenge(
        &self,
        who: &Member,
        opponent: &Member,
        kind: &str,
        extra: &[Value],
    ) -> Pressable {
        let options = Self::challenge_options(opponent, kind, extra);
        let ans = self
            .command_with(who, "challenge", options, &[opponent])
            .await;
        assert!(!ans.ephemeral && ans.callback_type == 4, "{ans:?}");
        assert!(
            ans.content.contains(&format!("<@{}>", opponent.id)),
            "{ans:?}"
        );
        assert!(
            ans.allowed_users.contains(&opponent.id),
            "the opponent is pinged: {ans:?}"
        );
        let p = Pressable::from_answer(&ans, &self.fake);
        for verb in ["accept", "decline", "withdraw"] {
            assert!(p.ids.contains_key(verb), "{:?}", p.ids);
        }
        p
    }

    /// Starts a game against the bot with `/play` (`level` 0 easy, 1 medium, 2 hard); returns
    /// it as its first board shows it.
    pub async fn play_bot(
        &self,
        who: &Member,
        kind: &str,
        level: u64,
        extra: &[Value],
    ) -> GameState {
        let game = if kind == "exxit" { 1 } else { 0 };
        let mut options = vec![
            json!({"name": "game", "type": 4, "value": game}),
            json!({"name": "level", "type": 4, "value": level}),
        ];
        options.extend(extra.iter().cloned());
        let from = self.fake.request_count();
        let ans = self.command(who, "play", options).await;
        assert!(ans.ephemeral && ans.content.contains("starts"), "{ans:?}");
        let post = self
            .posted(from, Some(self.channel()), "plays me at level")
            .await;
        assert_eq!(post.files.len(), 1, "the first board is attached");
        parse_state(
            post.json.unwrap_or(Value::Null)["content"]
                .as_str()
                .unwrap_or(""),
        )
    }

    /// Waits for the bot's own move in `state`'s game, posted in the channel (looking at the
    /// requests from index `from` on); returns the game as that board shows it.
    pub async fn bot_move(&self, from: usize, state: &GameState) -> GameState {
        let game = format!("game #{} ", state.id);
        let played = format!(" · <@{BOT_ID}>: ");
        let (_, post) = self
            .fake
            .wait_for(from, "the bot's move", |r| {
                r.method == "POST"
                    && self.fake.in_channel(&r.path, self.channel())
                    && r.json
                        .as_ref()
                        .and_then(|j| j["content"].as_str())
                        .is_some_and(|c| c.contains(&game) && c.contains(&played))
            })
            .await;
        assert_eq!(post.files.len(), 1, "the bot's board is attached");
        let body = post.json.unwrap_or(Value::Null);
        let next = parse_state(body["content"].as_str().unwrap_or(""));
        if !next.caption.contains("Game over") {
            assert!(
                users_of(&body).contains(&next.to_move),
                "the member to move is pinged: {body}"
            );
        }
        next
    }

    pub async fn refused_press(&self, who: &Member, p: &Pressable, verb: &str, needle: &str) {
        let before = self.snapshot().await;
        let ans = self.press(who, p, verb).await;
        assert!(
            ans.ephemeral && ans.callback_type == 4,
            "{verb} by {}: {ans:?}",
            who.name
        );
        assert!(
            ans.content.to_lowercase().contains(&needle.to_lowercase()),
            "{verb} by {}: {ans:?}",
            who.name
        );
        assert_eq!(
            self.snapshot().await,
            before,
            "{verb} by {} changed the database",
            who.name
        );
    }

    pub async fn answer_challenge(&self, who: &Member, p: &Pressable, verb: &str, needle: &str) {
        let ans = self.press(who, p, verb).await;
        assert_eq!(ans.callback_type, 7, "{ans:?}");
        assert!(ans.content.contains(needle), "{ans:?}");
        assert_eq!(ans.components, json!([]), "the buttons go away");
    }

    /// Accepts a challenge; returns the new game as its first board shows it.
    pub async fn accept(&self, who: &Member, p: &Pressable) -> GameState {
        let from = self.fake.request_count();
        let ans = self.press(who, p, "accept").await;
        assert_eq!(ans.callback_type, 7, "{ans:?}");
        assert!(
            ans.content.contains("accepted") || ans.content.contains("挑戦を受けました"),
            "{ans:?}"
        );
        let (_, post) = self
            .fake
            .wait_for(from, "the first board", |r| {
                r.is_new_post()
                    && self.fake.in_channel(&r.path, self.channel())
                    && !r.files.is_empty()
            })
            .await;
        assert_eq!(post.files.len(), 1, "the board is attached");
        let body = post.json.unwrap_or(Value::Null);
        let state = parse_state(body["content"].as_str().unwrap_or(""));
        assert!(
            users_of(&body).contains(&state.to_move),
            "the player to move is pinged: {body}"
        );
        state
    }

    /// The player to move picks the first suggestion (checking the suggestions) and plays it;
    /// returns the game as the board then posted shows it.
    pub async fn play_suggested(&self, state: &GameState) -> GameState {
        let from = self.fake.request_count();
        let ply = self.send_suggested(state).await;
        let post = self.board_post(from, state.id, ply).await;
        let body = post.json.unwrap_or(Value::Null);
        let content = body["content"].as_str().unwrap_or("").to_string();
        let next = parse_state(&content);
        if !content.contains("Game over") {
            assert!(users_of(&body).contains(&next.to_move), "{body}");
        }
        next
    }

    /// The player to move picks the first suggestion (checking the suggestions) and sends it
    /// with `/move`; returns the ply it made, once the answer came (not waiting for the board).
    pub async fn send_suggested(&self, state: &GameState) -> i64 {
        let who = member(state.to_move);
        let game = state.id.to_string();
        let choices = self
            .autocomplete(
                who,
                "move",
                vec![
                    json!({"name": "move", "type": 3, "value": "", "focused": true}),
                    json!({"name": "game", "type": 3, "value": game}),
                ],
            )
            .await;
        assert!(!choices.is_empty() && choices.len() <= 25, "{choices:?}");
        // Typing narrows the suggestions to matching moves.
        let typed: String = choices[0].chars().take(1).collect();
        let narrowed = self
            .autocomplete(
                who,
                "move",
                vec![
                    json!({"name": "move", "type": 3, "value": typed, "focused": true}),
                    json!({"name": "game", "type": 3, "value": game}),
                ],
            )
            .await;
        assert!(
            narrowed
                .iter()
                .all(|c| c.to_lowercase().contains(&typed.to_lowercase())),
            "{narrowed:?}"
        );
        let before = self.move_count(state.id).await;
        let ans = self
            .command(
                who,
                "move",
                vec![
                    json!({"name": "move", "type": 3, "value": choices[0]}),
                    json!({"name": "game", "type": 3, "value": game}),
                ],
            )
            .await;
        assert!(
            ans.ephemeral
                && (ans.content.contains("You played") || ans.content.contains("You passed")),
            "{ans:?}"
        );
        // The move is stored as the next ply (in a game against the bot, the bot's answer may
        // already follow it).
        assert_eq!(
            self.move_at(state.id, before + 1).await.as_deref(),
            Some(choices[0].as_str()),
            "{ans:?}"
        );
        before + 1
    }

    /// Waits for the board of move `ply` of `game`, posted by the delivery queue (requests from
    /// index `from` on), with its picture.
    pub async fn board_post(&self, from: usize, game: i64, ply: i64) -> Recorded {
        let game_ref = format!("game #{game} ");
        let move_ref = super::move_marker(ply);
        let (_, post) = self
            .fake
            .wait_for(from, &format!("the board of move {ply} of #{game}"), |r| {
                r.is_new_post()
                    && self.fake.in_channel(&r.path, self.channel())
                    && r.json
                        .as_ref()
                        .and_then(|j| j["content"].as_str())
                        .is_some_and(|c| c.contains(&game_ref) && c.contains(&move_ref))
            })
            .await;
        assert_eq!(post.files.len(), 1, "a board comes with each move");
        let content = post.json.as_ref().and_then(|j| j["content"].as_str());
        assert_eq!(content.and_then(super::caption_ply), Some(ply as usize));
        post
    }

    /// The position as `/board` shows it.
    pub async fn current(&self, state: &GameState) -> GameState {
        let ans = self
            .command(
                &CAT,
                "board",
                vec![json!({"name": "game", "type": 3, "value": state.id.to_string()})],
            )
            .await;
        assert!(!ans.ephemeral && ans.files.len() == 1, "{ans:?}");
        parse_state(&ans.content)
    }

    /// Two different moves sent at the same moment: exactly one applies, the other is refused
    /// privately.
    pub async fn race(&self, state: &GameState) {
        let who = member(state.to_move);
        let game = state.id.to_string();
        let choices = self
            .autocomplete(
                who,
                "move",
                vec![
                    json!({"name": "move", "type": 3, "value": "", "focused": true}),
                    json!({"name": "game", "type": 3, "value": game}),
                ],
            )
            .await;
        assert!(choices.len() >= 2, "{choices:?}");
        let before = self.move_count(state.id).await;
        let events: Vec<(String, Value)> = choices[..2]
            .iter()
            .map(|c| {
                let data = self.command_data(
                    "move",
                    vec![
                        json!({"name": "move", "type": 3, "value": c}),
                        json!({"name": "game", "type": 3, "value": game}),
                    ],
                    &[],
                );
                self.interaction(2, who, data, None)
            })
            .collect();
        let from = self.fake.request_count();
        for (_, e) in &events {
            self.fake.dispatch("INTERACTION_CREATE", e.clone());
        }
        let mut played = 0;
        let mut refused = 0;
        for (token, _) in &events {
            let cb = format!("/{token}/callback");
            let (_, r) = self
                .fake
                .wait_for(from, "a racing move's answer", |r| r.path.ends_with(&cb))
                .await;
            let body = r.json.unwrap_or(Value::Null);
            assert!(
                body["data"]["flags"].as_u64().unwrap_or(0) & 64 != 0,
                "answers to moves are private: {body}"
            );
            let text = body["data"]["content"].as_str().unwrap_or("");
            if text.contains("You played") || text.contains("You passed") {
                played += 1;
            } else {
                // Either the position changed under it, or it is no longer this player's turn.
                refused += 1;
            }
        }
        assert_eq!(
            (played, refused),
            (1, 1),
            "exactly one of two racing moves applies"
        );
        assert_eq!(self.move_count(state.id).await, before + 1);
        self.board_post(from, state.id, before + 1).await;
    }

    /// Plays suggested moves until the game ends (or resigns after `max` plies).
    pub async fn play_out(&self, mut state: GameState, max: usize) -> GameState {
        for ply in 0..max {
            if state.caption.contains("Game over") {
                let last = state.caption.lines().last().unwrap_or("");
                eprintln!("game #{} ended after {ply} more plies: {last}", state.id);
                return state;
            }
            state = self.play_suggested(&state).await;
        }
        panic!("game #{} did not end within {max} plies", state.id);
    }

    pub async fn resign(&self, who: &Member, state: &GameState) {
        let ans = self
            .command(
                who,
                "resign",
                vec![json!({"name": "game", "type": 3, "value": state.id.to_string()})],
            )
            .await;
        assert!(ans.ephemeral, "{ans:?}");
        let p = Pressable::from_answer(&ans, &self.fake);
        let keep = self.press(who, &p, "keep").await;
        assert_eq!(keep.callback_type, 7);
        // Keeping on leads back to the game: its Move button.
        assert!(
            components_of(&keep.components)
                .any(|c| c["custom_id"] == format!("hx:move:{}", state.id).as_str()),
            "{keep:?}"
        );
        assert_eq!(self.game_status(state.id).await, "active");
        let from = self.fake.request_count();
        let done = self.press(who, &p, "resign").await;
        assert_eq!(done.callback_type, 7, "{done:?}");
        let (_, post) = self
            .fake
            .wait_for(from, "the resignation board", |r| {
                // The final board (with its picture and its words), not the result line of an
                // earlier game nor the board of the last move, which the queue may post later.
                r.method == "POST"
                    && self.fake.in_channel(&r.path, self.channel())
                    && !r.files.is_empty()
                    && r.json
                        .as_ref()
                        .and_then(|j| j["content"].as_str())
                        .is_some_and(|c| c.contains("resigned"))
            })
            .await;
        let text = post.json.unwrap_or(Value::Null)["content"]
            .as_str()
            .unwrap_or("")
            .to_string();
        assert!(
            text.contains("resigned") && text.contains("resignation"),
            "{text}"
        );
        assert_eq!(post.files.len(), 1);
    }
}
