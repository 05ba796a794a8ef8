//! Discord ids (and game kinds) as the rows carry them: one newtype per kind of id, so a channel can never be
//! passed where a user is meant. Discord ids are unsigned 64-bit; SQL integers are signed, so
//! each id is stored as the same 64 bits read as an `i64` — [`to_db`] and [`from_db`] are the
//! one place where that bit-cast happens, and every newtype encodes and decodes through them.

use std::fmt;

use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::{Database, Decode, Encode, Type};

/// A Discord id as stored: the same 64 bits read as a signed integer.
pub const fn to_db(id: u64) -> i64 {
    id as i64
}

/// A stored id back as a Discord id.
pub const fn from_db(v: i64) -> u64 {
    v as u64
}

macro_rules! discord_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
        #[derive(serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub u64);

        impl $name {
            /// The id as Discord writes it.
            pub const fn get(self) -> u64 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }

        impl From<u64> for $name {
            fn from(id: u64) -> Self {
                $name(id)
            }
        }

        impl<DB: Database> Type<DB> for $name
        where
            i64: Type<DB>,
        {
            fn type_info() -> DB::TypeInfo {
                <i64 as Type<DB>>::type_info()
            }

            fn compatible(ty: &DB::TypeInfo) -> bool {
                <i64 as Type<DB>>::compatible(ty)
            }
        }

        impl<'q, DB: Database> Encode<'q, DB> for $name
        where
            i64: Encode<'q, DB>,
        {
            fn encode_by_ref(
                &self,
                buf: &mut <DB as Database>::ArgumentBuffer,
            ) -> Result<IsNull, BoxDynError> {
                <i64 as Encode<'q, DB>>::encode(to_db(self.0), buf)
            }
        }

        impl<'r, DB: Database> Decode<'r, DB> for $name
        where
            i64: Decode<'r, DB>,
        {
            fn decode(value: <DB as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
                match from_db(<i64 as Decode<'r, DB>>::decode(value)?) {
                    0 => Err(concat!("a stored ", stringify!($name), " is 0, which is never a Discord id").into()),
                    id => Ok($name(id)),
                }
            }
        }
    };
}

discord_id!(
    /// A Discord user (a player, a moderator, the bot itself).
    UserId
);
discord_id!(
    /// A Discord channel (a server's text channel, a thread or a direct-message channel).
    ChannelId
);
discord_id!(
    /// A Discord server ("guild").
    GuildId
);
discord_id!(
    /// A message posted by the bot (a board, a challenge).
    MessageId
);
discord_id!(
    /// A server's role (a seek role members take to hear of seeks of a game).
    RoleId
);

/// A game kind is stored as its name (`inphexion`, `exxit`); a stored name that is no kind does
/// not decode.
impl<DB: Database> Type<DB> for crate::games::GameKind
where
    String: Type<DB>,
{
    fn type_info() -> DB::TypeInfo {
        <String as Type<DB>>::type_info()
    }

    fn compatible(ty: &DB::TypeInfo) -> bool {
        <String as Type<DB>>::compatible(ty)
    }
}

impl<'q, DB: Database> Encode<'q, DB> for crate::games::GameKind
where
    &'static str: Encode<'q, DB>,
{
    fn encode_by_ref(
        &self,
        buf: &mut <DB as Database>::ArgumentBuffer,
    ) -> Result<IsNull, BoxDynError> {
        <&'static str as Encode<'q, DB>>::encode(self.name(), buf)
    }
}

impl<'r, DB: Database> Decode<'r, DB> for crate::games::GameKind
where
    String: Decode<'r, DB>,
{
    fn decode(value: <DB as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
        let name = <String as Decode<'r, DB>>::decode(value)?;
        name.parse()
            .map_err(|_| format!("`{name}` is not a game kind").into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::both_backends;

    #[test]
    fn ids_round_trip_through_the_bit_cast() {
        for id in [0u64, 1, 1_234_567_890_123_456_789, u64::MAX, 1 << 63] {
            assert_eq!(from_db(to_db(id)), id);
        }
        assert!(to_db(u64::MAX) < 0);
    }

    both_backends! {
        async fn every_id_survives_a_real_database_round_trip(pool) {
            for id in [1u64, 42, (1 << 63) - 1, 1 << 63, u64::MAX] {
                let back: (UserId, ChannelId, Option<GuildId>, MessageId) =
                    sqlx::query_as("SELECT $1, $2, $3, $4")
                        .bind(UserId(id))
                        .bind(ChannelId(id))
                        .bind(Some(GuildId(id)))
                        .bind(MessageId(id))
                        .fetch_one(&pool)
                        .await
                        .unwrap();
                assert_eq!(
                    back,
                    (UserId(id), ChannelId(id), Some(GuildId(id)), MessageId(id))
                );
                // Stored as the signed integer of the same bits, so SQL comparisons and indexes
                // see one value per id.
                let raw: i64 = sqlx::query_scalar("SELECT $1")
                    .bind(UserId(id))
                    .fetch_one(&pool)
                    .await
                    .unwrap();
                assert_eq!(raw, to_db(id));
            }
        }
    }

    both_backends! {
        async fn a_stored_zero_is_refused_not_read_as_an_id(pool) {
            let read: Result<(UserId,), _> = sqlx::query_as("SELECT 0").fetch_one(&pool).await;
            assert!(read.unwrap_err().to_string().contains("never a Discord id"));
        }
    }
}
