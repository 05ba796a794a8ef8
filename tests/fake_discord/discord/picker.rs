//! The Move button and the move picker, pressed and chosen as a member would.

use serde_json::Value;

use super::{components_of, Answer, Discord, Member};

impl Discord {
    /// `who` presses the Move button under `board` (a board post's body).
    pub async fn press_move(&self, who: &Member, board: &Value) -> Answer {
        let id = components_of(&board["components"])
            .find(|c| {
                c["custom_id"]
                    .as_str()
                    .is_some_and(|i| i.starts_with("hx:move:"))
            })
            .and_then(|c| c["custom_id"].as_str().map(str::to_string))
            .unwrap_or_else(|| panic!("no Move button under the board: {board}"));
        self.press_id(who, &self.shown_post(board), &id).await
    }

    /// Plays a move using only the Move button under `board` and the picker: at each step the
    /// option named by the next of `steps` (or the row it is in, where the menu is narrowed), then
    /// Play. Checks the preview picture and its description on the way. Returns Play's answer.
    pub async fn pick_move(
        &self,
        who: &Member,
        board: &Value,
        steps: &[hexcord::play::picker::Step],
    ) -> Answer {
        self.pick_move_timed(who, board, steps).await.0
    }

    /// [`Discord::pick_move`], with the time each interaction took until its answer, and whether
    /// that answer carried the preview picture.
    pub async fn pick_move_timed(
        &self,
        who: &Member,
        board: &Value,
        steps: &[hexcord::play::picker::Step],
    ) -> (Answer, Vec<(std::time::Duration, bool)>) {
        let mut times = Vec::new();
        let sent = std::time::Instant::now();
        let mut ans = self.press_move(who, board).await;
        times.push((sent.elapsed(), false));
        assert!(ans.ephemeral && ans.callback_type == 4, "{ans:?}");
        let mut depth = 0;
        for _ in 0..4 * steps.len() + 4 {
            let shown = self.shown(&ans);
            let parts: Vec<Value> = components_of(&ans.components).cloned().collect();
            if let Some(play) = parts.iter().find(|c| c["label"] == "Play") {
                // Steps with one choice are taken for the player: the last ones may be.
                assert!(depth <= steps.len(), "{ans:?}");
                assert_eq!(ans.files.len(), 1, "a preview comes with the last step");
                assert!(ans.files[0].starts_with(b"\x89PNG"), "the preview is a PNG");
                let alt = ans.raw["attachments"][0]["description"]
                    .as_str()
                    .unwrap_or("");
                assert!(
                    alt.contains(" game #") && alt.contains("after move"),
                    "{alt:?}"
                );
                let id = play["custom_id"].as_str().unwrap_or("").to_string();
                let sent = std::time::Instant::now();
                let played = self.press_id(who, &shown, &id).await;
                times.push((sent.elapsed(), false));
                return (played, times);
            }
            // The choices made so far, the player's and those taken for them, are the line
            // between the title and the question.
            let lines: Vec<&str> = ans.content.lines().collect();
            depth = match lines.as_slice() {
                [_, so_far, question] if question.starts_with("**") => so_far.split(" → ").count(),
                _ => 0,
            };
            let step = steps
                .get(depth)
                .unwrap_or_else(|| panic!("steps run out: {ans:?}"));
            let menu = parts.iter().find(|c| c["type"] == 3);
            let options: Vec<&Value> = menu
                .and_then(|m| m["options"].as_array())
                .map(|o| o.iter().collect())
                .unwrap_or_default();
            assert!(options.len() <= 25, "a menu holds at most 25 options");
            let menu_id = menu.and_then(|m| m["custom_id"].as_str()).unwrap_or("");
            let label = step.label.render(hexcord::i18n::Lang::EN);
            let button = parts
                .iter()
                .find(|c| c["type"] == 2 && c["label"] == label.as_str());
            let exact = options.iter().find(|o| o["label"] == label.as_str());
            let row = step.group.as_ref().and_then(|g| {
                let g = g.render(hexcord::i18n::Lang::EN);
                options.iter().find(|o| {
                    o["label"]
                        .as_str()
                        .is_some_and(|l| l.starts_with(&format!("{g} (")))
                })
            });
            let sent = std::time::Instant::now();
            ans = if let Some(o) = exact {
                self.select(who, &shown, menu_id, o["value"].as_str().unwrap_or(""))
                    .await
            } else if let Some(b) = button {
                self.press_id(who, &shown, b["custom_id"].as_str().unwrap_or(""))
                    .await
            } else if let Some(o) = row {
                self.select(who, &shown, menu_id, o["value"].as_str().unwrap_or(""))
                    .await
            } else {
                panic!("`{}` is not offered: {ans:?}", step.label);
            };
            times.push((sent.elapsed(), !ans.files.is_empty()));
            assert_eq!(
                ans.callback_type, 7,
                "a picker step updates its message: {ans:?}"
            );
        }
        panic!("the picker never offered Play");
    }
}
