//! `GET /tournament/{id}`: the page of a tournament, drawn on the server in the reader's
//! language (`Accept-Language`): its state, its standings (the same table as
//! `/tournament standings`, [`crate::play::actions::event_now`]), and each round's pairings,
//! latest first, with their results and a link to the live page of every game (`/game/{id}`).
//!
//! The page follows the event by itself: `assets/web/tournament.js` reads the page again every
//! few seconds and puts in what changed (an event's changes span many games, so it asks rather
//! than holding one live stream a game). An event that has ended is not asked for again.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use super::assets::{error_page, escape, not_found_page};
use super::texts::{accepted_lang, lang_code};
use super::Web;
use crate::db::{PairingResult, PairingRow, TournamentStatus, UserId};
use crate::i18n::{Lang, Text};
use crate::play::actions::{event_now, EventNow};
use crate::play::Error;
use crate::text;

/// The address of tournament `id`'s page under the web board's public address.
pub fn tournament_url(public_url: &str, id: i64) -> String {
    format!("{}/tournament/{id}", public_url.trim_end_matches('/'))
}

/// `GET /tournament/{id}`: the page of an event that exists, else 404.
pub async fn page(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let lang = accepted_lang(&headers).unwrap_or_default();
    let Ok(id) = id.parse::<i64>() else {
        return not_found_page(lang);
    };
    match event_now(&web.core.pool, id, lang).await {
        Ok(event) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            render(&event, lang),
        )
            .into_response(),
        Err(Error::Refused(r)) => error_page(StatusCode::NOT_FOUND, lang, &r.0),
        Err(e) => {
            tracing::error!(tournament = id, "web tournament page: {e:#}");
            let status = if e.storage_unavailable() {
                StatusCode::SERVICE_UNAVAILABLE
            } else {
                StatusCode::INTERNAL_SERVER_ERROR
            };
            error_page(status, lang, &Text::new(e.apology_id()))
        }
    }
}

/// The page of `event` in `lang`.
fn render(event: &EventNow, lang: Lang) -> String {
    let view = &event.standings;
    let t = &view.tournament;
    let say = |text: Text| escape(&text.render(lang));
    let status = match t.status {
        TournamentStatus::Signup => "signup",
        TournamentStatus::Running => "running",
        TournamentStatus::Finished => "finished",
        TournamentStatus::Cancelled => "cancelled",
    };
    let over = matches!(
        t.status,
        TournamentStatus::Finished | TournamentStatus::Cancelled
    );
    let mut html = format!(
        "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"referrer\" content=\"no-referrer\"><title>{name}</title>\
         <link rel=\"stylesheet\" href=\"/assets/theme.css\">\
         <link rel=\"stylesheet\" href=\"/assets/tournament.css\">\
         <script type=\"module\" src=\"/assets/tournament.js\"></script></head><body>\
         <main id=\"event\" data-status=\"{status}\" data-over=\"{over}\">\
         <h1>{name}</h1><p class=\"state\">{state}</p>",
        lang = lang_code(lang),
        name = escape(&t.name),
        state = say(text!(
            "web-tournament-state",
            status = status,
            round = t.rounds_paired,
            rounds = t.rounds.unwrap_or(0)
        )),
    );
    html.push_str(&standings_html(event, lang));
    let mut rounds: Vec<i64> = event.pairings.iter().map(|p| p.round).collect();
    rounds.sort_unstable();
    rounds.dedup();
    for round in rounds.into_iter().rev() {
        html.push_str(&format!(
            "<section class=\"round\" data-round=\"{round}\"><h2>{}</h2><ol class=\"pairings\">",
            say(text!("web-tournament-round", round = round))
        ));
        let mut boards: Vec<&PairingRow> =
            event.pairings.iter().filter(|p| p.round == round).collect();
        boards.sort_by_key(|p| p.board);
        for p in boards {
            html.push_str(&pairing_html(event, p, lang));
        }
        html.push_str("</ol></section>");
    }
    if !over {
        html.push_str(&format!(
            "<p class=\"updates\">{}</p>",
            say(text!("web-tournament-updates"))
        ));
    }
    html.push_str("</main></body></html>\n");
    html
}

/// A player's name as the standings show it: marked when they withdrew or were removed.
fn name_of(event: &EventNow, user: UserId, lang: Lang) -> String {
    let view = &event.standings;
    let Some(seed) = event.players.iter().position(|p| p.player_id == user) else {
        return "?".to_string();
    };
    let name = view.names.get(seed).cloned().unwrap_or_else(|| "?".into());
    match event.players[seed].withdrawn_round {
        Some(_) => text!("tournament-withdrawn-name", name = name).render(lang),
        None => name,
    }
}

/// The standings table, or a line saying no round is decided yet.
fn standings_html(event: &EventNow, lang: Lang) -> String {
    let view = &event.standings;
    let say = |id: &'static str| escape(&Text::new(id).render(lang));
    if view.round == 0 {
        return format!(
            "<section class=\"standings\" data-round=\"0\"><p>{}</p></section>",
            say("web-tournament-standings-none")
        );
    }
    let tiebreaks = view.format.ranking().rules.tiebreaks;
    let mut html = format!(
        "<section class=\"standings\" data-round=\"{round}\"><h2>{title}</h2>\
         <table><thead><tr><th>{rank}</th><th class=\"name\">{player}</th><th>{points}</th>\
         <th>{games}</th>",
        round = view.round,
        title = escape(&text!("web-tournament-standings", round = view.round).render(lang)),
        rank = say("web-tournament-col-rank"),
        player = say("web-tournament-col-player"),
        points = say("web-tournament-col-points"),
        games = say("web-tournament-col-games"),
    );
    for t in tiebreaks {
        html.push_str(&format!("<th>{}</th>", say(t.page_heading())));
    }
    html.push_str("</tr></thead><tbody>");
    for s in &view.table {
        let Some(p) = event.players.get(s.player) else {
            continue;
        };
        let withdrawn = p.withdrawn_round.is_some();
        html.push_str(&format!(
            "<tr{class}><td>{rank}</td><td class=\"name\">{name}</td><td>{points}</td>\
             <td>{games}</td>",
            class = if withdrawn {
                " class=\"withdrawn\""
            } else {
                ""
            },
            rank = s.rank,
            name = escape(&name_of(event, p.player_id, lang)),
            points = s.points,
            games = s.games,
        ));
        for t in tiebreaks {
            html.push_str(&format!("<td>{}</td>", t.shown(s)));
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table></section>");
    html
}

/// One board of a round: its players, its result, and its game's page.
fn pairing_html(event: &EventNow, p: &PairingRow, lang: Lang) -> String {
    let white = escape(&name_of(event, p.white_id, lang));
    let Some(black_id) = p.black_id else {
        let points = crate::standings::Score::<2>(p.bye_halves.unwrap_or(0).clamp(0, 2) as u32);
        return format!(
            "<li class=\"bye\"><span class=\"white\">{white}</span> \
             <span class=\"result\">{}</span></li>",
            escape(&text!("web-tournament-bye", points = points.to_string()).render(lang))
        );
    };
    let black = escape(&name_of(event, black_id, lang));
    let result = match p.result {
        Some(PairingResult::White) => "1–0".to_string(),
        Some(PairingResult::Black) => "0–1".to_string(),
        Some(PairingResult::Draw) => "½–½".to_string(),
        Some(PairingResult::WhiteForfeit) => "+–−".to_string(),
        Some(PairingResult::BlackForfeit) => "−–+".to_string(),
        Some(PairingResult::Void | PairingResult::Bye) => {
            escape(&text!("web-tournament-void").render(lang))
        }
        None => escape(&text!("web-tournament-playing").render(lang)),
    };
    let game = match p.game_id {
        Some(g) => {
            let label = match p.result {
                None => text!("web-link-watch"),
                Some(_) => text!("web-tournament-game", game = g),
            };
            format!(
                " <a class=\"game\" href=\"/game/{g}\">{}</a>",
                escape(&label.render(lang))
            )
        }
        None => String::new(),
    };
    format!(
        "<li class=\"{state}\" data-board=\"{board}\"><span class=\"board\">{board}</span> \
         <span class=\"white\">{white}</span> – <span class=\"black\">{black}</span> \
         <span class=\"result\">{result}</span>{game}</li>",
        state = if p.result.is_none() {
            "playing"
        } else {
            "decided"
        },
        board = p.board,
    )
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, OnceLock};

    use axum::body::Body;
    use axum::http::{header, Request, StatusCode};
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    use super::escape;
    use crate::clock::Clock;
    use crate::db::testing::both_backends;
    use crate::db::{self, ChannelId, GuildId, Pool, TournamentFormat, UserId};
    use crate::games::Options;
    use crate::play::actions::{self, Core, Starter, TournamentRequest, Withdrawal};
    use crate::web::{router, Web};

    const T0: i64 = 1_800_000_000;
    const GUILD: GuildId = GuildId(7);

    /// The page at `path` read in `lang` (an `Accept-Language`): its status and body.
    async fn get(core: &Core, path: &str, lang: &str) -> (StatusCode, String) {
        let app = router(Web::new(core.clone(), Arc::new(OnceLock::new())));
        let request = Request::builder()
            .uri(path)
            .header(header::ACCEPT_LANGUAGE, lang)
            .body(Body::empty())
            .expect("request");
        let response = app.oneshot(request).await.expect("response");
        let status = response.status();
        let body = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        (status, String::from_utf8(body.to_vec()).expect("utf-8"))
    }

    /// A Swiss of three rounds between ann, bob, cat (<b>), dan and eve, started: round 1 is
    /// paired (two games and a bye).
    async fn swiss(pool: Pool) -> (Core, i64) {
        let players = [
            (UserId(11), "ann"),
            (UserId(12), "bob"),
            (UserId(13), "cat <b>"),
            (UserId(14), "dan"),
            (UserId(15), "eve"),
        ];
        for (id, name) in players {
            db::upsert_player(&pool, id, name, T0)
                .await
                .expect("player");
        }
        let core = Core::new(pool, Clock::fixed(T0).0);
        let req = TournamentRequest {
            guild_id: GUILD,
            channel_id: ChannelId(8),
            creator: UserId(11),
            manager: true,
            name: "Autumn cup".to_string(),
            options: Options::parse_line("inphexion size=5").expect("options"),
            format: TournamentFormat::SWISS,
            rounds: Some(3),
            seconds_per_move: 86_400,
            rated: false,
            max_players: None,
            starts_at: None,
            time_control: None,
            weekends_off: None,
        };
        let (id, _) = actions::create_tournament(&core, &req)
            .await
            .expect("create");
        for (user, _) in players {
            actions::join_tournament(&core, id, Some(GUILD), user)
                .await
                .expect("join");
        }
        let by = Starter {
            user: UserId(11),
            guild: Some(GUILD),
            manager: false,
        };
        actions::start_tournament(&core, id, Some(by))
            .await
            .expect("start");
        (core, id)
    }

    both_backends! {
        /// An unknown or malformed event is a 404 page in the reader's language.
        async fn an_unknown_tournament_is_not_found_in_the_readers_language(pool) {
            let (core, id) = swiss(pool).await;
            let unknown = id + 1;
            let (status, body) = get(&core, &format!("/tournament/{unknown}"), "en-GB").await;
            assert_eq!(status, StatusCode::NOT_FOUND);
            assert!(body.contains(&format!("There is no tournament #{unknown}.")), "{body}");
            let (status, body) = get(&core, &format!("/tournament/{unknown}"), "ja,en;q=0.5").await;
            assert_eq!(status, StatusCode::NOT_FOUND);
            assert!(body.contains(&format!("大会 #{unknown} はありません。")), "{body}");
            assert!(body.contains("lang=\"ja\""), "{body}");
            let (status, _) = get(&core, "/tournament/autumn", "en").await;
            assert_eq!(status, StatusCode::NOT_FOUND);
        }
    }

    both_backends! {
        /// The page shows the round's pairings with a link to the game in progress, then the
        /// standings once the round is decided, a withdrawn player marked; in English and
        /// Japanese, names escaped.
        async fn the_page_shows_pairings_games_and_standings_in_both_languages(pool) {
            let (core, id) = swiss(pool).await;
            let path = format!("/tournament/{id}");
            let pairings = db::tournament_pairings(&core.pool, id).await.expect("pairings");
            let game = pairings.iter().find_map(|p| p.game_id).expect("a game");
            let (status, en) = get(&core, &path, "en-US").await;
            assert_eq!(status, StatusCode::OK, "{en}");
            assert!(en.contains("<h1>Autumn cup</h1>"), "{en}");
            assert!(en.contains("Round 1 of 3"), "{en}");
            assert!(en.contains("No round is decided yet."), "{en}");
            assert!(en.contains(&format!("<a class=\"game\" href=\"/game/{game}\">Watch live</a>")), "{en}");
            assert!(en.contains("bye (1)"), "{en}");
            assert!(en.contains("cat &lt;b&gt;") && !en.contains("cat <b>"), "{en}");
            assert!(en.contains("/assets/tournament.js") && !en.contains("<script>"), "{en}");

            // The games end: their results, the standings after round 1, the next round paired.
            let p = pairings.iter().find(|p| p.game_id == Some(game)).expect("pairing");
            let loser = p.black_id.expect("black");
            actions::resign(&core, game, loser).await.expect("resign");
            let (_, en) = get(&core, &path, "en-US").await;
            assert!(en.contains("No round is decided yet."), "one game of two is over: {en}");
            for other in pairings.iter().filter(|p| p.game_id.is_some() && p.game_id != Some(game)) {
                let other_game = other.game_id.expect("game");
                let other_loser = other.white_id;
                actions::resign(&core, other_game, other_loser).await.expect("resign");
            }
            let (_, en) = get(&core, &path, "en-US").await;
            assert!(en.contains("Standings after round 1"), "{en}");
            assert!(en.contains("<span class=\"result\">1–0</span>"), "{en}");
            assert!(en.contains(&format!("href=\"/game/{game}\">game #{game}</a>")), "{en}");
            assert!(en.contains("Round 2 of 3"), "{en}");

            actions::withdraw(&core, id, Some(GUILD), loser, Withdrawal::Asked)
                .await
                .expect("withdraw");
            let loser_name = db::fetch_player_name(&core.pool, loser).await.expect("name").expect("known");
            let (_, en) = get(&core, &path, "en-US").await;
            let marked = escape(&format!("{loser_name} (withdrawn)"));
            assert!(en.contains("<tr class=\"withdrawn\"><td>"), "{en}");
            assert!(en.contains(&marked), "{en}");

            let (status, ja) = get(&core, &path, "ja").await;
            assert_eq!(status, StatusCode::OK);
            assert!(ja.contains("lang=\"ja\""), "{ja}");
            assert!(ja.contains("第1ラウンド終了時点の順位"), "{ja}");
            assert!(ja.contains("第2ラウンド（全3ラウンド）"), "{ja}");
            assert!(ja.contains("<th>得点</th>"), "{ja}");
            assert!(!ja.contains("Standings") && !ja.contains("Points"), "{ja}");
        }
    }
}
