//! The pictures of announcements: a game's board with its description and buttons, and an
//! event's standings.

use super::*;

impl Delivery {
    /// The standings picture of a tournament after a round; `None` (logged) when it cannot be
    /// drawn: the standings go out in words alone.
    pub(super) async fn standings_picture(
        &self,
        tournament: i64,
        round: i64,
        lang: Lang,
    ) -> Option<Board> {
        let drawn = async {
            let view = crate::play::actions::standings_after(&self.pool, tournament, round).await?;
            let theme =
                crate::play::server_theme(&self.pool, Some(view.tournament.guild_id)).await?;
            let alt = crate::text!(
                "tournament-standings-alt",
                name = view.tournament.name.clone(),
                round = round,
                players = view.table.len() as i64
            )
            .render(lang);
            // On the pictures' bounded threads, like the boards.
            let png = crate::play::present::draw(move || {
                crate::render::standings::standings_png(
                    lang,
                    &view.tournament.name,
                    view.format,
                    &view.table,
                    &view.names,
                    crate::render::standings::Marks {
                        round,
                        withdrawn: &view.withdrawn,
                    },
                    theme,
                )
            })
            .await?;
            // The event's page, live, under its standings.
            let buttons = self.web_url.as_deref().map(|url| {
                serenity::CreateActionRow::Buttons(vec![
                    crate::bot::components::tournament_page_button(lang, url, tournament),
                ])
            });
            Ok::<_, anyhow::Error>(Board { png, alt, buttons })
        }
        .await;
        match drawn {
            Ok(b) => Some(b),
            Err(e) => {
                error!(tournament, "cannot draw the standings: {e:?}");
                None
            }
        }
    }

    /// The game of board `b`, read once for its picture, its thread and the board it replaces;
    /// `None` (logged) when it cannot be read: the news then goes out without the picture.
    pub(super) async fn load_board(&self, conn: &mut db::Conn, b: db::BoardAt) -> Option<Shown> {
        let loaded = async {
            let (row, game) = db::load_game(&mut *conn, b.game)
                .await?
                .ok_or_else(|| anyhow::anyhow!("game {} vanished", b.game))?;
            // Public boards speak the server's language (a former member's name is in it).
            let lang = crate::play::server_lang(&mut *conn, row.guild_id).await?;
            let names = names_of(&mut *conn, &row, &game, lang).await?;
            // A finished game between members offers a rematch; against the bot, none; nor in a
            // chat, where the offer could only be posted by the bot on its own (a new
            // `/challenge` there does it).
            let rematch = row.status == db::GameStatus::Finished
                && !crate::play::chats::is_chat_game(&row)
                && db::fetch_bot_level(&mut *conn, row.id).await?.is_none();
            let theme = crate::play::server_theme(&mut *conn, row.guild_id).await?;
            Ok::<_, anyhow::Error>(Shown {
                row,
                game,
                names,
                rematch,
                theme,
            })
        }
        .await;
        match loaded {
            Ok(shown) => Some(shown),
            Err(e) => {
                error!(
                    game = b.game,
                    "cannot read the game of an announcement's board: {e:?}"
                );
                None
            }
        }
    }

    /// The board of an announcement; `None` (logged) when it cannot be drawn: the news goes out
    /// without the picture rather than not at all.
    pub(super) async fn board_picture(
        &self,
        b: db::BoardAt,
        shown: Option<&Shown>,
        lang: Lang,
    ) -> Option<Board> {
        let Shown {
            row,
            game,
            names,
            rematch,
            theme,
        } = shown?;
        let ply = usize::try_from(b.ply).ok().filter(|&p| p <= game.ply());
        let alt = alt_text(lang, row.id, game, ply.unwrap_or(game.ply()));
        let buttons = match row.status {
            db::GameStatus::Active => {
                let mut buttons =
                    move_button_row(lang, row, self.web_url.as_deref(), self.activity);
                // A reminder also offers the member's inbox, where every game waiting for
                // them is played.
                if b.reminder && self.web_url.is_some() {
                    if let serenity::CreateActionRow::Buttons(row_buttons) = &mut buttons {
                        row_buttons.push(inbox_button(lang, row.id));
                    }
                }
                Some(buttons)
            }
            db::GameStatus::Finished if *rematch => {
                Some(rematch_button_row(lang, row.id, self.web_url.as_deref()))
            }
            _ => self.web_url.as_deref().map(|url| {
                serenity::CreateActionRow::Buttons(vec![watch_button(lang, url, row.id)])
            }),
        };
        let drawn = picture(lang, *theme, game.clone(), ply, names.clone()).await;
        match drawn {
            Ok(png) => Some(Board { png, alt, buttons }),
            Err(e) => {
                error!(
                    game = b.game,
                    "cannot draw the board of an announcement: {e:?}"
                );
                None
            }
        }
    }

    /// The picture of a daily puzzle (puzzle `puzzle`, posted in `guild`; its Solve button is
    /// added by the post); `None` (logged) when it cannot be drawn: the puzzle goes out in
    /// words, with its button, rather than not at all.
    pub(super) async fn puzzle_picture(
        &self,
        guild: db::GuildId,
        puzzle: i64,
        lang: Lang,
    ) -> Option<Board> {
        let drawn = async {
            let stored = db::fetch_puzzle(&self.pool, puzzle)
                .await?
                .ok_or_else(|| anyhow::anyhow!("puzzle {puzzle} vanished"))?;
            let theme = crate::play::server_theme(&self.pool, Some(guild)).await?;
            let game = stored.puzzle.game().map_err(|e| anyhow::anyhow!(e))?;
            let (png, alt) = crate::play::puzzles::picture(lang, theme, game, None).await?;
            Ok::<_, anyhow::Error>(Board {
                png,
                alt,
                buttons: None,
            })
        }
        .await;
        match drawn {
            Ok(b) => Some(b),
            Err(e) => {
                error!(puzzle, "cannot draw a daily puzzle: {e:?}");
                None
            }
        }
    }
}
