//! Discord's Activity proxy signature: with `DISCORD_PUBLIC_KEY` set, a request that comes
//! through Discord's proxy is checked before it is served.
//!
//! The proxy adds `X-Discord-Proxy-Payload` (a JSON object, base64: when it was made,
//! `created_at`, and until when it holds, `expires_at`, in Unix seconds, with who it is for),
//! `X-Signature-Ed25519` (the Ed25519 signature of the payload's bytes by the application's key,
//! in hex or base64) and `X-Signature-Timestamp` (`created_at` again). A request with any of
//! them must carry all three, signed with the application's public key, made no later than a
//! few minutes ahead of the bot's clock and not expired: else it is refused (401). A request
//! without any comes straight to the bot (the web board outside Discord) and is served as
//! always.

use base64::Engine;
use ed25519_dalek::{Signature, VerifyingKey};
use serde::Deserialize;

/// How far ahead of the bot's clock a payload may have been made (clocks differ a little).
pub const AHEAD_SECS: i64 = 300;

/// The headers of Discord's proxy.
pub const PAYLOAD: &str = "x-discord-proxy-payload";
pub const SIGNATURE: &str = "x-signature-ed25519";
pub const TIMESTAMP: &str = "x-signature-timestamp";

/// The application's public key, which checks the proxy's signatures.
pub struct ProxyCheck {
    key: VerifyingKey,
}

/// Why a request's proxy headers are refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Forged {
    /// Some of the three headers are missing, or one cannot be read.
    Malformed,
    /// The signature is not the application's over the payload.
    BadSignature,
    /// The timestamp is not the payload's, the payload was made in the future, or it expired.
    Stale,
}

#[derive(Deserialize)]
struct Payload {
    created_at: i64,
    expires_at: i64,
    /// The member the request is for (a snowflake, as a string).
    user_id: Option<String>,
}

/// A request signed by Discord's proxy, for the member its payload names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Signed {
    pub user: Option<u64>,
}

impl ProxyCheck {
    /// The check with the application's public key (32 bytes); an invalid key is refused.
    pub fn new(public_key: &[u8; 32]) -> anyhow::Result<ProxyCheck> {
        let key = VerifyingKey::from_bytes(public_key).map_err(|e| {
            anyhow::anyhow!("DISCORD_PUBLIC_KEY is not an Ed25519 public key ({e}): copy it again from the Developer Portal (General Information → Public Key)")
        })?;
        Ok(ProxyCheck { key })
    }

    /// Checks the proxy's headers (`payload`, `signature`, `timestamp`, each `None` when absent)
    /// at time `now`: `Ok(None)` when there are none (a request straight to the bot), the
    /// signed request's member when they are Discord's and current.
    pub fn check(
        &self,
        payload: Option<&str>,
        signature: Option<&str>,
        timestamp: Option<&str>,
        now: i64,
    ) -> Result<Option<Signed>, Forged> {
        let (payload, signature, timestamp) = match (payload, signature, timestamp) {
            (None, None, None) => return Ok(None),
            (Some(p), Some(s), Some(t)) => (p.trim(), s.trim(), t.trim()),
            _ => return Err(Forged::Malformed),
        };
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(payload)
            .map_err(|_| Forged::Malformed)?;
        let signature = signature_bytes(signature).ok_or(Forged::Malformed)?;
        self.key
            .verify_strict(&bytes, &Signature::from_bytes(&signature))
            .map_err(|_| Forged::BadSignature)?;
        let payload: Payload = serde_json::from_slice(&bytes).map_err(|_| Forged::Malformed)?;
        let stamped: i64 = timestamp.parse().map_err(|_| Forged::Malformed)?;
        if stamped != payload.created_at
            || payload.created_at > now + AHEAD_SECS
            || payload.expires_at <= now
        {
            return Err(Forged::Stale);
        }
        Ok(Some(Signed {
            user: payload.user_id.and_then(|u| u.parse().ok()),
        }))
    }
}

/// A signature of 64 bytes written in hex (128 digits) or base64.
fn signature_bytes(text: &str) -> Option<[u8; 64]> {
    let bytes = if text.len() == 128 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        (0..64)
            .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok())
            .collect::<Option<Vec<u8>>>()?
    } else {
        base64::engine::general_purpose::STANDARD
            .decode(text)
            .ok()?
    };
    bytes.try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};

    const NOW: i64 = 1_800_000_000;

    fn signed(key: &SigningKey, created: i64, expires: i64) -> (String, String, String) {
        let payload = format!(
            r#"{{"created_at":{created},"expires_at":{expires},"user_id":"42","application_id":"7"}}"#
        );
        let signature = key.sign(payload.as_bytes()).to_bytes();
        (
            base64::engine::general_purpose::STANDARD.encode(payload.as_bytes()),
            signature.iter().map(|b| format!("{b:02x}")).collect(),
            created.to_string(),
        )
    }

    #[test]
    fn discords_signature_passes_and_forged_or_stale_ones_are_refused() {
        let key = SigningKey::from_bytes(&[7u8; 32]);
        let check = ProxyCheck::new(&key.verifying_key().to_bytes()).unwrap();
        let run =
            |(p, s, t): &(String, String, String)| check.check(Some(p), Some(s), Some(t), NOW);
        let good = signed(&key, NOW - 10, NOW + 600);
        let ann = Ok(Some(Signed { user: Some(42) }));
        assert_eq!(run(&good), ann);
        // The same signature in base64.
        let sig: Vec<u8> = (0..64)
            .map(|i| u8::from_str_radix(&good.1[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        let b64 = base64::engine::general_purpose::STANDARD.encode(&sig);
        assert_eq!(run(&(good.0.clone(), b64, good.2.clone())), ann);
        // Nothing: a request straight to the bot.
        assert_eq!(check.check(None, None, None, NOW), Ok(None));
        // Another key's signature, a changed payload, a missing header.
        let other = SigningKey::from_bytes(&[8u8; 32]);
        assert_eq!(
            run(&signed(&other, NOW - 10, NOW + 600)),
            Err(Forged::BadSignature)
        );
        let changed = signed(&key, NOW - 10, NOW + 600);
        let longer = signed(&key, NOW - 10, NOW + 999_999);
        assert_eq!(
            run(&(longer.0, changed.1, changed.2)),
            Err(Forged::BadSignature)
        );
        assert_eq!(
            check.check(Some(&good.0), None, Some(&good.2), NOW),
            Err(Forged::Malformed)
        );
        assert_eq!(
            run(&(good.0.clone(), "zz".repeat(64), good.2.clone())),
            Err(Forged::Malformed)
        );
        // Expired, made in the future, or a timestamp that is not the payload's.
        assert_eq!(run(&signed(&key, NOW - 900, NOW - 1)), Err(Forged::Stale));
        assert_eq!(
            run(&signed(&key, NOW + AHEAD_SECS + 60, NOW + 9999)),
            Err(Forged::Stale)
        );
        assert_eq!(
            run(&(good.0.clone(), good.1.clone(), (NOW - 11).to_string())),
            Err(Forged::Stale)
        );
    }
}
