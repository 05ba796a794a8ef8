//! The fake gateway: hello, identify and ready per shard, heartbeats, and the events the fake
//! dispatches.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::{shard_of, FakeState, APP_ID, BOT_ID, GUILD2_ID, GUILD_ID};

pub(super) async fn gateway(State(state): State<Arc<FakeState>>, ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(move |socket| run_gateway(state, socket))
}

async fn run_gateway(state: Arc<FakeState>, mut socket: WebSocket) {
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41250}});
    if socket
        .send(Message::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<Value>();
    let mut seq = 0u64;
    let mut identified: Option<u64> = None;
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let Some(Ok(msg)) = incoming else { break };
                let text = match msg {
                    Message::Text(t) => t.to_string(),
                    Message::Binary(b) => String::from_utf8_lossy(&b).to_string(),
                    Message::Close(_) => break,
                    _ => continue,
                };
                let Ok(v) = serde_json::from_str::<Value>(&text) else { continue };
                match v["op"].as_u64() {
                    Some(1) => {
                        let ack = json!({"op": 11});
                        if socket.send(Message::Text(ack.to_string().into())).await.is_err() { break; }
                    }
                    Some(2) => {
                        if v["d"]["token"].as_str().is_none() {
                            state.violations.lock().unwrap().push("IDENTIFY without token".into());
                        }
                        seq += 1;
                        let addr = state.addr.lock().unwrap().clone();
                        // `shard: [id, count]`, or one shard of one.
                        let shard = v["d"]["shard"][0].as_u64().unwrap_or(0);
                        let count = v["d"]["shard"][1].as_u64().unwrap_or(1);
                        let guilds: Vec<Value> = [GUILD_ID, GUILD2_ID]
                            .into_iter()
                            .filter(|&g| shard_of(g, count) == shard)
                            .map(|g| json!({"id": g.to_string(), "unavailable": true}))
                            .collect();
                        let ready = json!({"op": 0, "s": seq, "t": "READY", "d": {
                            "v": 10,
                            "user": {"id": BOT_ID.to_string(), "username": "hexcord", "discriminator": "0",
                                     "global_name": null, "avatar": null, "bot": true},
                            "guilds": guilds,
                            "session_id": format!("session-{seq}"),
                            "resume_gateway_url": format!("ws://{addr}/ws"),
                            "application": {"id": APP_ID.to_string(), "flags": 0}
                        }});
                        if socket.send(Message::Text(ready.to_string().into())).await.is_err() { break; }
                        state.gateways.lock().unwrap().insert(shard, (count, tx.clone()));
                        let intents = v["d"]["intents"].as_u64().unwrap_or(0);
                        state.intents.lock().unwrap().insert(shard, intents);
                        identified = Some(shard);
                        state.readies.fetch_add(1, Ordering::SeqCst);
                        state.changed.notify_waiters();
                    }
                    _ => {}
                }
            }
            out = rx.recv() => {
                let Some(mut event) = out else { break };
                seq += 1;
                event["s"] = json!(seq);
                if socket.send(Message::Text(event.to_string().into())).await.is_err() { break; }
            }
        }
    }
    // A connection that ended (a killed bot) no longer receives its shard's events.
    if let Some(shard) = identified {
        let mut gateways = state.gateways.lock().unwrap();
        if gateways
            .get(&shard)
            .is_some_and(|(_, open)| open.same_channel(&tx))
        {
            gateways.remove(&shard);
        }
    }
}
