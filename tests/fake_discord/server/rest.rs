//! The fake REST API: each request recorded and checked against the spec, faults answered,
//! and the messages, interactions and threads it creates kept.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::{FakeState, Recorded, Thread, APP_ID, BOT_ID, CHANNEL_ID};

/// The channel where the interaction with `token` happened.
fn channel_of(state: &FakeState, token: &str) -> String {
    state
        .token_channels
        .lock()
        .unwrap()
        .get(token)
        .copied()
        .unwrap_or(CHANNEL_ID)
        .to_string()
}

fn message_object(state: &FakeState, channel: &str, body: &Value, files: usize) -> Value {
    let id = state.next_id.fetch_add(1, Ordering::Relaxed);
    let attachments: Vec<Value> = (0..files)
        .map(|i| {
            json!({"id": (id + 1 + i as u64).to_string(), "filename": "board.png", "size": 1,
                   "url": "https://cdn.example/board.png", "proxy_url": "https://cdn.example/board.png"})
        })
        .collect();
    json!({
        "id": id.to_string(),
        "channel_id": channel,
        "type": 0,
        "content": body.get("content").cloned().unwrap_or(json!("")),
        "author": {"id": BOT_ID.to_string(), "username": "hexcord", "discriminator": "0",
                   "global_name": null, "avatar": null, "bot": true, "public_flags": 0, "flags": 0},
        "mentions": [], "mention_roles": [], "attachments": attachments, "embeds": [],
        "timestamp": "2025-01-01T00:00:00+00:00", "edited_timestamp": null,
        "flags": body.get("flags").cloned().unwrap_or(json!(0)),
        "components": body.get("components").cloned().unwrap_or(json!([])),
        "pinned": false, "mention_everyone": false, "tts": false,
        "application_id": APP_ID.to_string()
    })
}

/// Whether an attachment is a decodable PNG or GIF, or else UTF-8 text.
fn attachment_decodes(bytes: &[u8]) -> bool {
    if bytes.starts_with(b"\x89PNG") {
        image::load_from_memory_with_format(bytes, image::ImageFormat::Png).is_ok()
    } else if bytes.starts_with(b"GIF8") {
        image::load_from_memory_with_format(bytes, image::ImageFormat::Gif).is_ok()
    } else {
        std::str::from_utf8(bytes).is_ok()
    }
}

/// A form-encoded body (`a=b&c=d`) as pairs, percent-decoded.
fn form_pairs(body: &[u8]) -> Vec<(String, String)> {
    let decode = |s: &str| {
        let bytes = s.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => {
                    let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                    match u8::from_str_radix(hex, 16) {
                        Ok(b) => {
                            out.push(b);
                            i += 2;
                        }
                        Err(_) => out.push(b'%'),
                    }
                }
                b => out.push(b),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    };
    String::from_utf8_lossy(body)
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (decode(k), decode(v)))
        .collect()
}

/// Discord's OAuth2 token endpoint (not in the HTTP specification): a form with the client's
/// id and secret and an authorization code, answered with an access token for the code's
/// member, or 400 `invalid_grant` / 401 `invalid_client` as Discord answers.
fn oauth2_token(state: &FakeState, content_type: &str, body: &[u8]) -> (StatusCode, Value) {
    if !content_type.starts_with("application/x-www-form-urlencoded") {
        state.violations.lock().unwrap().push(format!(
            "POST /oauth2/token: not form-encoded ({content_type})"
        ));
        return (StatusCode::BAD_REQUEST, json!({"error": "invalid_request"}));
    }
    let form: std::collections::HashMap<String, String> = form_pairs(body).into_iter().collect();
    let field = |k: &str| form.get(k).map(String::as_str).unwrap_or("");
    if field("client_id") != APP_ID.to_string() || field("client_secret") != super::CLIENT_SECRET {
        return (StatusCode::UNAUTHORIZED, json!({"error": "invalid_client"}));
    }
    if field("grant_type") != "authorization_code" {
        return (
            StatusCode::BAD_REQUEST,
            json!({"error": "unsupported_grant_type"}),
        );
    }
    let mut oauth = state.oauth.lock().unwrap();
    let Some(member) = oauth.codes.remove(field("code")) else {
        return (
            StatusCode::BAD_REQUEST,
            json!({"error": "invalid_grant", "error_description": "Invalid \"code\" in request."}),
        );
    };
    let token = format!("access{}", state.next_id.fetch_add(1, Ordering::Relaxed));
    oauth.access_tokens.insert(token.clone(), member);
    let expires_in = oauth.expires_in.unwrap_or(604800);
    (
        StatusCode::OK,
        json!({"access_token": token, "token_type": "Bearer", "expires_in": expires_in,
               "refresh_token": format!("refresh-{token}"), "scope": "identify"}),
    )
}

/// A member as `GET /users/@me` shows them.
fn user_object(id: u64) -> Value {
    json!({"id": id.to_string(), "username": format!("member{}", id % 1000), "discriminator": "0",
           "global_name": null, "avatar": null, "public_flags": 0, "flags": 0, "bot": id == BOT_ID})
}

pub(super) async fn rest(State(state): State<Arc<FakeState>>, req: Request) -> Response {
    let method = req.method().clone();
    let full = req.uri().path().to_string();
    let authorization = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let content_type = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let Some(path) = full.strip_prefix("/api/v10").map(str::to_string) else {
        state
            .violations
            .lock()
            .unwrap()
            .push(format!("{method} {full}: not under /api/v10"));
        return StatusCode::NOT_FOUND.into_response();
    };
    if method == Method::POST && path == "/oauth2/token" {
        let bytes = axum::body::to_bytes(req.into_body(), 1 << 16)
            .await
            .unwrap_or_default();
        let (status, answer) = oauth2_token(&state, &content_type, &bytes);
        state.limits.answered(status.as_u16());
        state.requests.lock().unwrap().push(Recorded {
            method: method.to_string(),
            path,
            json: None,
            files: Vec::new(),
            status: status.as_u16(),
            at: std::time::Instant::now(),
            duplicate: false,
        });
        state.changed.notify_waiters();
        return (status, Json(answer)).into_response();
    }
    let mut json_body = None;
    let mut files = Vec::new();
    if content_type.starts_with("multipart/form-data") {
        match Multipart::from_request(req, &()).await {
            Ok(mut mp) => {
                while let Ok(Some(field)) = mp.next_field().await {
                    let name = field.name().unwrap_or("").to_string();
                    let data: Bytes = field.bytes().await.unwrap_or_default();
                    if name == "payload_json" {
                        json_body = serde_json::from_slice(&data).ok();
                        if json_body.is_none() {
                            state
                                .violations
                                .lock()
                                .unwrap()
                                .push(format!("{method} {path}: payload_json is not JSON"));
                        }
                    } else {
                        files.push((name, data.to_vec()));
                    }
                }
            }
            Err(e) => state
                .violations
                .lock()
                .unwrap()
                .push(format!("{method} {path}: bad multipart: {e}")),
        }
    } else {
        let bytes = axum::body::to_bytes(req.into_body(), 16 << 20)
            .await
            .unwrap_or_default();
        if !bytes.is_empty() {
            match serde_json::from_slice::<Value>(&bytes) {
                Ok(v) => json_body = Some(v),
                Err(_) => state
                    .violations
                    .lock()
                    .unwrap()
                    .push(format!("{method} {path}: body is not JSON")),
            }
        }
    }

    // Check the request against the spec.
    match state.spec.operation(method.as_str(), &path) {
        Err(e) => state.violations.lock().unwrap().push(e),
        Ok(op) => {
            if let (Some(schema), Some(body)) = (op.body_schema, &json_body) {
                for e in state.spec.validate(schema, body) {
                    state
                        .violations
                        .lock()
                        .unwrap()
                        .push(format!("{method} {} body{e}", op.template));
                }
            }
            if op.body_schema.is_some() && json_body.is_none() && method != Method::GET {
                state
                    .violations
                    .lock()
                    .unwrap()
                    .push(format!("{method} {path}: no body"));
            }
        }
    }
    let over = super::limits::breaches(method.as_str(), &path, json_body.as_ref(), &files);
    state.violations.lock().unwrap().extend(over);
    // Pictures (PNG boards, GIF replays) must decode; anything else is a text record. Decoding
    // a picture takes milliseconds: it runs on a blocking thread so that the fake keeps
    // answering other requests (and timing callbacks) meanwhile.
    let (files, decoded) = tokio::task::spawn_blocking(move || {
        // A decoder that panics marks the attachment as not decoding.
        let decoded: Vec<bool> = files
            .iter()
            .map(|(_, b)| std::panic::catch_unwind(|| attachment_decodes(b)).unwrap_or(false))
            .collect();
        (files, decoded)
    })
    .await
    .expect("the decoding thread ran");
    for ((name, bytes), content_ok) in files.iter().zip(decoded.iter().copied()) {
        let part_ok = name.starts_with("files[") && name.ends_with(']');
        if !part_ok || !content_ok {
            state.violations.lock().unwrap().push(format!(
                "{method} {path}: attachment `{name}` (part name ok: {part_ok}) does not decode: {content_ok}"
            ));
        }
        // Every picture carries a description (its alt text) for readers who cannot see it.
        let picture = bytes.starts_with(b"\x89PNG") || bytes.starts_with(b"GIF8");
        let id = name.trim_start_matches("files[").trim_end_matches(']');
        let described = json_body
            .as_ref()
            .and_then(|b| {
                // A message's own, or an interaction answer's (under `data`).
                b["attachments"]
                    .as_array()
                    .or_else(|| b["data"]["attachments"].as_array())
            })
            .and_then(|list| {
                list.iter().find(|a| {
                    a["id"].as_str() == Some(id)
                        || a["id"].as_u64().map(|n| n.to_string()).as_deref() == Some(id)
                })
            })
            .and_then(|a| a["description"].as_str())
            .is_some_and(|d| !d.trim().is_empty());
        if picture && !described {
            state.violations.lock().unwrap().push(format!(
                "{method} {path}: picture `{name}` has no description (alt text)"
            ));
        }
    }

    let admitted = match state.limits.admit(method.as_str(), &path) {
        Ok(admitted) => admitted,
        Err(refused) => {
            state.limits.answered(refused.status().as_u16());
            state.requests.lock().unwrap().push(Recorded {
                method: method.to_string(),
                path,
                json: json_body,
                files,
                status: refused.status().as_u16(),
                at: std::time::Instant::now(),
                duplicate: false,
            });
            state.changed.notify_waiters();
            return *refused;
        }
    };
    let fault = {
        let mut faults = state.faults.lock().unwrap();
        let at = faults
            .iter()
            .position(|f| f.method == method.as_str() && f.matches(&path) && f.times > 0);
        at.map(|i| {
            faults[i].times -= 1;
            faults[i].clone()
        })
    };
    // A fault answering 200 only holds the request back: it is then served as any other (a
    // slow answer from Discord).
    if let Some(f) = fault {
        if !f.delay.is_zero() {
            state.held.fetch_add(1, Ordering::SeqCst);
            state.changed.notify_waiters();
            tokio::time::sleep(f.delay).await;
            state.held.fetch_sub(1, Ordering::SeqCst);
        }
        if f.status != 200 {
            let mut answer = (
                StatusCode::from_u16(f.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                Json(f.body.clone()),
            )
                .into_response();
            if let Some(secs) = f.retry_after {
                if let Ok(v) = axum::http::HeaderValue::from_str(&secs.to_string()) {
                    answer.headers_mut().insert("retry-after", v);
                }
            }
            state.limits.answered(f.status);
            state.requests.lock().unwrap().push(Recorded {
                method: method.to_string(),
                path,
                json: json_body,
                files,
                status: f.status,
                at: std::time::Instant::now(),
                duplicate: false,
            });
            state.changed.notify_waiters();
            return answer;
        }
    }

    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    let body = json_body.clone().unwrap_or(Value::Null);
    let mut duplicate = false;
    let mut answer = match (method.as_str(), segs.as_slice()) {
        // The limits of chats between members (see `chats`).
        (_, ["channels", chat, "messages", ..]) | (_, ["channels", chat, "threads"])
            if state.is_chat(chat) =>
        {
            super::chats::missing_access()
        }
        ("POST", ["channels", dm, "messages"]) if !state.may_post_direct(dm) => {
            super::chats::cannot_send()
        }
        (_, ["webhooks", _, token, ..]) if state.token_expired(token) => {
            super::chats::invalid_token()
        }
        ("GET", ["gateway"]) => {
            let addr = state.addr.lock().unwrap().clone();
            Json(json!({"url": format!("ws://{addr}/ws")})).into_response()
        }
        ("PUT", ["applications", _, "guilds", _, "commands"])
            if super::limits::entry_point_in(&body) =>
        {
            super::limits::entry_point_refused()
        }
        ("PUT", ["applications", _, "guilds", _, "commands"])
        | ("PUT", ["applications", _, "commands"]) => {
            let mut out = Vec::new();
            let mut names = state.commands.lock().unwrap();
            for c in body.as_array().cloned().unwrap_or_default() {
                let id = state.next_id.fetch_add(1, Ordering::Relaxed);
                let name = c["name"].as_str().unwrap_or("").to_string();
                names.insert(name.clone(), id);
                state
                    .registered
                    .lock()
                    .unwrap()
                    .insert(name.clone(), c.clone());
                let mut c = c.clone();
                c["id"] = json!(id.to_string());
                c["application_id"] = json!(APP_ID.to_string());
                c["version"] = json!(id.to_string());
                c["type"] = json!(c.get("type").and_then(Value::as_u64).unwrap_or(1));
                // Discord answers with permissions as a string.
                if let Some(bits) = c.get("default_member_permissions").and_then(Value::as_u64) {
                    c["default_member_permissions"] = json!(bits.to_string());
                }
                c["description"] =
                    json!(c.get("description").and_then(Value::as_str).unwrap_or(""));
                out.push(c);
            }
            Json(Value::Array(out)).into_response()
        }
        ("POST", ["interactions", _, token, "callback"]) => {
            if matches!(body["type"].as_u64(), Some(4) | Some(5)) {
                let data = body.get("data").cloned().unwrap_or(json!({}));
                let msg = message_object(&state, &channel_of(&state, token), &data, files.len());
                state
                    .originals
                    .lock()
                    .unwrap()
                    .insert(token.to_string(), msg);
            }
            StatusCode::NO_CONTENT.into_response()
        }
        ("GET", ["webhooks", _, token, "messages", "@original"]) => {
            match state.originals.lock().unwrap().get(*token) {
                Some(m) => Json(m.clone()).into_response(),
                None => StatusCode::NOT_FOUND.into_response(),
            }
        }
        ("POST", ["webhooks", _, token]) => Json(message_object(
            &state,
            &channel_of(&state, token),
            &body,
            files.len(),
        ))
        .into_response(),
        ("PATCH", ["webhooks", _, token, "messages", _]) => Json(message_object(
            &state,
            &channel_of(&state, token),
            &body,
            files.len(),
        ))
        .into_response(),
        ("POST", ["channels", channel, "messages"]) => {
            let nonce = body["enforce_nonce"]
                .as_bool()
                .unwrap_or(false)
                .then(|| body["nonce"].to_string());
            let mut nonces = state.nonces.lock().unwrap();
            match nonce.as_ref().and_then(|n| nonces.get(n)) {
                Some(earlier) => {
                    duplicate = true;
                    Json(earlier.clone()).into_response()
                }
                None => {
                    let m = message_object(&state, channel, &body, files.len());
                    if let Some(n) = nonce {
                        nonces.insert(n, m.clone());
                    }
                    state.keep_buttons(channel, &m);
                    Json(m).into_response()
                }
            }
        }
        ("PATCH", ["channels", channel, "messages", message]) => {
            if let Some(components) = body.get("components") {
                state.edit_buttons(message, components);
            }
            Json(message_object(&state, channel, &body, files.len())).into_response()
        }
        ("POST", ["channels", channel, "messages", _, "threads"])
        | ("POST", ["channels", channel, "threads"]) => {
            let parent = channel.parse().unwrap_or(0);
            let from = segs.get(3).and_then(|m| m.parse().ok());
            let mut threads = state.threads.lock().unwrap();
            let taken = from.is_some_and(|m| threads.contains_key(&m));
            if taken || threads.contains_key(&parent) {
                // A message has one thread; a thread has none.
                (
                    StatusCode::BAD_REQUEST,
                    Json(json!({"message": "Cannot execute action on this channel type", "code": 50024})),
                )
                    .into_response()
            } else {
                let id = from.unwrap_or_else(|| state.next_id.fetch_add(1, Ordering::Relaxed));
                let t = Thread {
                    parent,
                    name: body["name"].as_str().unwrap_or("").to_string(),
                    from,
                    members: vec![BOT_ID],
                    archived: false,
                };
                let answer = t.json(id);
                threads.insert(id, t);
                Json(answer).into_response()
            }
        }
        ("PUT", ["channels", thread, "thread-members", user])
        | ("DELETE", ["channels", thread, "thread-members", user]) => {
            let (thread, user): (u64, u64) =
                (thread.parse().unwrap_or(0), user.parse().unwrap_or(0));
            match state.threads.lock().unwrap().get_mut(&thread) {
                Some(t) => {
                    t.members.retain(|&m| m != user);
                    if method == Method::PUT {
                        t.members.push(user);
                    }
                    StatusCode::NO_CONTENT.into_response()
                }
                None => (
                    StatusCode::NOT_FOUND,
                    Json(json!({"message": "Unknown Channel", "code": 10003})),
                )
                    .into_response(),
            }
        }
        ("PATCH", ["channels", thread]) => {
            let id: u64 = thread.parse().unwrap_or(0);
            match state.threads.lock().unwrap().get_mut(&id) {
                Some(t) => {
                    if let Some(a) = body["archived"].as_bool() {
                        t.archived = a;
                    }
                    Json(t.json(id)).into_response()
                }
                None => (
                    StatusCode::NOT_FOUND,
                    Json(json!({"message": "Unknown Channel", "code": 10003})),
                )
                    .into_response(),
            }
        }
        ("GET", ["users", "@me"]) => {
            let member = match authorization.split_once(' ') {
                Some(("Bearer", token)) => state
                    .oauth
                    .lock()
                    .unwrap()
                    .access_tokens
                    .get(token)
                    .copied(),
                Some(("Bot", _)) => Some(BOT_ID),
                _ => None,
            };
            match member {
                Some(id) => Json(user_object(id)).into_response(),
                None => (
                    StatusCode::UNAUTHORIZED,
                    Json(json!({"message": "401: Unauthorized", "code": 0})),
                )
                    .into_response(),
            }
        }
        // A member takes or drops a role (a seek role's button).
        ("PUT", ["guilds", _, "members", _, "roles", _])
        | ("DELETE", ["guilds", _, "members", _, "roles", _]) => {
            StatusCode::NO_CONTENT.into_response()
        }
        ("POST", ["users", "@me", "channels"]) => {
            let user = body["recipient_id"].as_str().unwrap_or("0").to_string();
            let id = state.next_id.fetch_add(1, Ordering::Relaxed);
            // Which member each direct message channel reaches (see `chats`).
            state
                .dms
                .lock()
                .unwrap()
                .insert(id, user.parse().unwrap_or(0));
            Json(json!({
                "id": id.to_string(), "type": 1, "last_message_id": null, "flags": 0,
                "recipients": [{"id": user, "username": "member", "discriminator": "0",
                                "global_name": null, "avatar": null, "public_flags": 0}]
            }))
            .into_response()
        }
        _ => {
            state
                .violations
                .lock()
                .unwrap()
                .push(format!("{method} {path}: the fake does not serve this"));
            StatusCode::NOT_FOUND.into_response()
        }
    };
    admitted.decorate(&mut answer);
    state.limits.answered(answer.status().as_u16());
    state.requests.lock().unwrap().push(Recorded {
        method: method.to_string(),
        path,
        json: json_body,
        files,
        status: answer.status().as_u16(),
        at: std::time::Instant::now(),
        duplicate,
    });
    state.changed.notify_waiters();
    answer
}
