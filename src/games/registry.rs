//! The registry: the one list of games. From it come [`GameKind`] (and [`GameKind::ALL`]), the
//! enums [`Options`], [`Move`] and [`Position`] over the games' own types, and `on_game!`, the
//! `match` that runs the same code for whichever game a value holds with `G` naming its
//! [`Rules`] type: `on_game!(position, Position(p), G => G::to_line(p))`. Each arm is the game's
//! own code, compiled for that game alone (static dispatch, no trait objects).
//!
//! The forms of `on_game!`:
//! - `on_game!(kind, GameKind, G => …)` on a [`GameKind`];
//! - `on_game!(value, Enum(x), G => …)` on an [`Options`], [`Move`] or [`Position`], `x` bound to
//!   the game's own value;
//! - `on_game!((a, b), EnumA(x), EnumB(y), G => …, pair => …)` on a pair of the same game, the
//!   last arm for a pair of two games.
use super::{exxit, inphexion, Rules};

/// A game in the registry: its [`Rules`] and its variant of the enums, for code generic over the
/// game (the `G` of `on_game!`).
pub trait Registered: Rules {
    const KIND: GameKind;
    fn wrap_options(o: Self::Options) -> Options;
    fn wrap_position(p: Self::Position) -> Position;
    fn wrap_move(m: Self::Move) -> Move;
    /// The game's own position in `p`, when `p` is of this game.
    fn position_of(p: &Position) -> Option<&Self::Position>;
    /// The game's own move in `m`, when `m` is of this game.
    fn move_of(m: &Move) -> Option<&Self::Move>;
}

/// Defines the enums and `on_game!` from the list of `Variant => module::RulesType`. `$d` is a
/// `$` passed in, for the inner macro's own variables.
macro_rules! define_games {
    ($d:tt $($variant:ident => $module:ident :: $rules:ident),+ $(,)?) => {
        /// Which game.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        pub enum GameKind {
            $($variant),+
        }

        impl GameKind {
            /// Every game, in the registry's order.
            pub const ALL: [GameKind; [$(stringify!($variant)),+].len()] =
                [$(GameKind::$variant),+];
        }

        /// A game's options.
        #[derive(Clone, PartialEq, Eq, Debug)]
        pub enum Options {
            $($variant(<$module::$rules as Rules>::Options)),+
        }

        /// A move of any game.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        pub enum Move {
            $($variant(<$module::$rules as Rules>::Move)),+
        }

        /// A position of any game.
        // An EXXIT position keeps its cells behind a box but some arrays inline (the stack index
        // and keys that make its moves fast); boxing the variant would cost an allocation a copy.
        #[allow(clippy::large_enum_variant)]
        #[derive(PartialEq, Eq, Debug)]
        pub enum Position {
            $($variant(<$module::$rules as Rules>::Position)),+
        }

        $(impl Registered for $module::$rules {
            const KIND: GameKind = GameKind::$variant;
            fn wrap_options(o: Self::Options) -> Options {
                Options::$variant(o)
            }
            fn wrap_position(p: Self::Position) -> Position {
                Position::$variant(p)
            }
            fn wrap_move(m: Self::Move) -> Move {
                Move::$variant(m)
            }
            #[allow(unreachable_patterns)]
            fn position_of(p: &Position) -> Option<&Self::Position> {
                match p {
                    Position::$variant(p) => Some(p),
                    _ => None,
                }
            }
            #[allow(unreachable_patterns)]
            fn move_of(m: &Move) -> Option<&Self::Move> {
                match m {
                    Move::$variant(m) => Some(m),
                    _ => None,
                }
            }
        })+

        macro_rules! on_game {
            ($d value:expr, GameKind, $d g:ident => $d body:expr) => {
                match $d value {
                    $($d crate::games::GameKind::$variant => {
                        #[allow(unused_imports)]
                        use $d crate::games::{Registered as _, Rules as _};
                        #[allow(dead_code)]
                        type $d g = $d crate::games::$module::$rules;
                        $d body
                    })+
                }
            };
            ($d value:expr, $d e:ident($d x:pat), $d g:ident => $d body:expr) => {
                match $d value {
                    $($d crate::games::$d e::$variant($d x) => {
                        #[allow(unused_imports)]
                        use $d crate::games::{Registered as _, Rules as _};
                        #[allow(dead_code)]
                        type $d g = $d crate::games::$module::$rules;
                        $d body
                    })+
                }
            };
            (
                $d value:expr, $d e:ident($d x:pat), $d f:ident($d y:pat),
                $d g:ident => $d body:expr, $d rest:pat => $d other:expr
            ) => {
                match $d value {
                    $((
                        $d crate::games::$d e::$variant($d x),
                        $d crate::games::$d f::$variant($d y),
                    ) => {
                        #[allow(unused_imports)]
                        use $d crate::games::{Registered as _, Rules as _};
                        #[allow(dead_code)]
                        type $d g = $d crate::games::$module::$rules;
                        $d body
                    })+
                    $d rest => $d other,
                }
            };
        }
    };
}

define_games! {$
    Inphexion => inphexion::Inphexion,
    Exxit => exxit::Exxit,
}

pub(crate) use on_game;
