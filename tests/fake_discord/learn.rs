//! `/learn`: a member walks the whole first stage of inpHeXion's course with the picker, a wrong
//! move refused in words and tried again, each level done with its stars and the Next level
//! button, the stage's end offering a coached game against the bot at beginner and a puzzle as
//! buttons (which start them) and a challenge in words; another member's press
//! and an old picker change nothing; `/profile` shows the progress. In a group chat too, and in
//! Japanese under `/入門`.

use std::time::Instant;

use serde_json::{json, Value};

use crate::discord::{components_of, Answer, Bot, Discord, Member, ANN, BOB, CAT};
use crate::puzzles::pick_in;
use hexcord::games::{Game, Move};
use hexcord::i18n::Lang;

/// The level's game after `moves`.
fn level(key: &str, moves: &[&str]) -> Game {
    let place = hexcord::learn::find(key).expect("a level of the course");
    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    hexcord::learn::replay(place.level, &moves).expect("the level replays")
}

fn legal(game: &Game, notation: &str) -> Move {
    game.legal_moves()
        .into_iter()
        .find(|m| m.to_string() == notation)
        .unwrap_or_else(|| panic!("`{notation}` is legal"))
}

/// The custom id of the button labelled `label` in `ans`.
fn button(ans: &Answer, label: &str) -> String {
    components_of(&ans.components)
        .find(|c| c["label"] == label)
        .and_then(|c| c["custom_id"].as_str())
        .unwrap_or_else(|| panic!("no `{label}` button: {ans:?}"))
        .to_string()
}

/// Walks inpHeXion's first stage as `who` in `lang` from `first` (their `/learn` answer): a
/// wrong move first, then the right ones, pressing Next level between them. Returns the last
/// answer (the stage's end).
async fn first_stage(d: &Discord, who: &Member, first: &Answer, lang: Lang) -> Answer {
    let ja = lang != Lang::EN;
    assert!(first.ephemeral, "a level is private: {first:?}");
    assert_eq!(first.files.len(), 1, "the board: {first:?}");
    assert!(first.files[0].starts_with(b"\x89PNG"));
    let (stage, level1) = if ja {
        ("ステージ1/7", "レベル1/3")
    } else {
        ("stage 1/7", "level 1/3")
    };
    assert!(
        first.content.contains(stage) && first.content.contains(level1),
        "{first:?}"
    );
    // A corner: legal, but the level names it, and says why.
    let start = level("inphexion/first-disc", &[]);
    let wrong = pick_in(d, who, first, &start, legal(&start, "a1"), lang).await;
    assert_eq!(wrong.callback_type, 7, "{wrong:?}");
    let why = if ja {
        "2マスにしか接して"
    } else {
        "touches only two cells"
    };
    assert!(wrong.content.contains(why), "{wrong:?}");
    assert!(wrong
        .content
        .contains(if ja { "もう一度" } else { "Try again" }));
    // The first picker is stale now: pressing it changes nothing.
    let old = components_of(&first.components)
        .find_map(|c| c["custom_id"].as_str())
        .expect("a picker component")
        .to_string();
    assert!(old.starts_with("hx:lpick:"), "{old}");
    let stale = d.press_id(who, &d.shown(first), &old).await;
    assert!(stale.ephemeral && stale.callback_type == 4, "{stale:?}");
    assert!(
        stale
            .content
            .contains(if ja { "古くなって" } else { "out of date" }),
        "{stale:?}"
    );
    // The centre: done, two stars (one try refused), and the next level's button.
    let done = pick_in(d, who, &wrong, &start, legal(&start, "c3"), lang).await;
    assert!(done.content.contains("★★☆"), "{done:?}");
    let next_label = hexcord::i18n::tr(lang, "learn-button-next");
    let next = d
        .press_id(who, &d.shown(&done), &button(&done, &next_label))
        .await;
    assert_eq!(next.callback_type, 7, "{next:?}");
    assert!(
        next.content
            .contains(if ja { "レベル2/3" } else { "level 2/3" }),
        "{next:?}"
    );
    // Level 2: connect White's edges, first try: three stars.
    let two = level("inphexion/white-connects", &[]);
    let done = pick_in(d, who, &next, &two, legal(&two, "c3-d3"), lang).await;
    assert!(done.content.contains("★★★"), "{done:?}");
    let next = d
        .press_id(who, &d.shown(&done), &button(&done, &next_label))
        .await;
    // Level 3: as Black.
    let three = level("inphexion/black-connects", &[]);
    assert!(
        next.content.contains(if ja {
            "あなたは黒"
        } else {
            "You play black"
        }),
        "{next:?}"
    );
    let end = pick_in(d, who, &next, &three, legal(&three, "c3-c2"), lang).await;
    assert!(end.content.contains("★★★"), "{end:?}");
    // The stage's end: the bot at beginner, a puzzle, a challenge; and the next stage's level.
    let (play, puzzle) = if ja {
        ("`/ボット対局`", "`/パズル 解く`")
    } else {
        ("`/play`", "`/puzzle solve`")
    };
    assert!(
        end.content.contains(play) && end.content.contains(puzzle),
        "{end:?}"
    );
    end
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_walks_the_first_stage_with_a_wrong_move_in_english_and_japanese() {
    let started = Instant::now();
    let d = Discord::start("learn").await;
    let mut bot = Bot::start(&d).await;
    d.fake.wait_ready(1).await;

    // Cat opens the course: inpHeXion's first level, privately.
    let first = d.command(&CAT, "learn", vec![]).await;
    assert!(first.content.contains("Learn inpHeXion"), "{first:?}");
    // Bob presses Cat's picker: refused privately, nothing changes.
    let any = components_of(&first.components)
        .find_map(|c| c["custom_id"].as_str())
        .expect("a picker component")
        .to_string();
    let refused = d.press_id(&BOB, &d.shown(&first), &any).await;
    assert!(
        refused.ephemeral && refused.content.contains("another member's"),
        "{refused:?}"
    );
    let end = first_stage(&d, &CAT, &first, Lang::EN).await;
    // The stage's end offers its next steps as buttons: Cat's alone.
    let play = button(&end, "Play me (beginner)");
    let puzzle = button(&end, "A puzzle");
    let refused = d.press_id(&BOB, &d.shown(&end), &play).await;
    assert!(
        refused.ephemeral && refused.content.contains("another member's"),
        "{refused:?}"
    );
    // A puzzle of inpHeXion, in a private message of its own, with its board.
    let given = d.press_id(&CAT, &d.shown(&end), &puzzle).await;
    assert!(
        given.callback_type == 4
            && given.ephemeral
            && given.content.contains("A new puzzle for you")
            && given.content.contains("inpHeXion")
            && given.files.len() == 1,
        "{given:?}"
    );
    // A coached game against the bot at beginner, here: its board follows in the channel.
    let from = d.fake.request_count();
    let game = d.press_id(&CAT, &d.shown(&end), &play).await;
    assert!(
        game.callback_type == 4
            && game.ephemeral
            && game.content.contains("against me at level **beginner**"),
        "{game:?}"
    );
    let (_, board) = d
        .fake
        .wait_for(from, "the beginner game's first board", |r| {
            r.is_new_post() && d.fake.in_channel(&r.path, d.channel()) && !r.files.is_empty()
        })
        .await;
    let body = board.json.unwrap_or(Value::Null);
    let content = body["content"].as_str().unwrap_or("");
    assert!(
        content.contains("**inpHeXion**") && content.contains("with the coach"),
        "a coached game: {body}"
    );
    // The stage's message still leads on.
    let next = button(&end, "Next level");
    let stage2 = d.press_id(&CAT, &d.shown(&end), &next).await;
    assert!(stage2.content.contains("stage 2/7"), "{stage2:?}");

    // Her profile shows the progress.
    let profile = d.command(&CAT, "profile", vec![]).await;
    let fields = profile.embeds[0]["fields"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let learn: Vec<&Value> = fields
        .iter()
        .filter(|f| f["name"] == "Learn to play")
        .collect();
    assert_eq!(learn.len(), 1, "{profile:?}");
    let total = hexcord::learn::places(hexcord::games::GameKind::Inphexion).len();
    assert_eq!(
        learn[0]["value"],
        json!(format!("inpHeXion: 3/{total} levels, 8/{} ★", 3 * total)),
        "{profile:?}"
    );

    // In a group chat: Ann's own course, privately; EXXIT when she asks for it.
    d.enter_chat(&ANN, &[&ANN, &CAT]);
    assert!(d.offered(&ANN, "learn"), "/learn reaches chats");
    let exxit = d
        .command(
            &ANN,
            "learn",
            vec![json!({"name": "game", "type": 4, "value": 1})],
        )
        .await;
    assert!(
        exxit.ephemeral && exxit.content.contains("Learn EXXIT"),
        "{exxit:?}"
    );
    d.in_chat(None);

    // In Japanese, under its Japanese name: Bob walks the same stage.
    d.speak("ja");
    let registered = d
        .fake
        .state
        .registered
        .lock()
        .unwrap()
        .get("learn")
        .cloned()
        .expect("/learn registered");
    assert_eq!(
        registered["name_localizations"]["ja"], "入門",
        "{registered}"
    );
    let ja = d.command(&BOB, "learn", vec![]).await;
    assert!(ja.content.contains("inpHeXionの入門"), "{ja:?}");
    first_stage(&d, &BOB, &ja, Lang::of("ja")).await;

    d.end(&mut bot, "learn end-to-end", started).await;
}
