//! Where announcements go: a game's or an event's thread, opened when first needed, archived at
//! the end; a thread that refuses the bot leaves its game in the channel and the moderators told.

use super::*;

impl Delivery {
    /// The thread of tournament `tournament`'s announcements, if it has one.
    pub(super) async fn tournament_thread(
        &self,
        tournament: i64,
    ) -> Result<Option<ChannelId>, Failure> {
        match db::fetch_tournament(&self.pool, tournament).await {
            Ok(row) => Ok(row.and_then(|t| t.thread_id)),
            Err(e) => Err(Failure::Passing(format!(
                "cannot read tournament {tournament}: {e}"
            ))),
        }
    }

    /// Opens tournament `tournament`'s thread on its card (the announcement's content is its
    /// name). Where Discord refuses, its announcements stay in its channel.
    pub(super) async fn open_tournament_thread(
        &self,
        q: &QueuedAnnouncement,
        tournament: i64,
        channel: ChannelId,
        message: db::MessageId,
    ) -> Result<Option<db::MessageId>, Failure> {
        // Opened already: a retry after a crash.
        if self.tournament_thread(tournament).await?.is_some() {
            return Ok(None);
        }
        let made = self
            .paced(
                q,
                serenity::ChannelId::from(channel).create_thread_from_message(
                    self.http.as_ref(),
                    serenity::MessageId::from(message),
                    serenity::CreateThread::new(q.body.content.clone())
                        .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek),
                ),
            )
            .await;
        match made {
            Ok(thread) => {
                let thread = ChannelId::from(thread.id);
                db::set_tournament_thread(&self.pool, tournament, Some(thread))
                    .await
                    .map_err(|e| Failure::Passing(format!("cannot store a thread: {e}")))?;
                info!(tournament, %thread, "the tournament's thread is open");
                Ok(None)
            }
            Err(e) => match Failure::of(&e) {
                Failure::Passing(why) => Err(Failure::Passing(why)),
                Failure::Refused { code, message, .. } => {
                    warn!(
                        tournament,
                        %channel,
                        "cannot open the tournament's thread ({code}: {message}); its announcements stay in its channel"
                    );
                    Ok(None)
                }
            },
        }
    }

    /// The thread where game `game` is played, if it has one.
    pub(super) async fn thread_of(&self, game: i64) -> Result<Option<ChannelId>, Failure> {
        match db::fetch_game(&self.pool, game).await {
            Ok(row) => Ok(row.and_then(|r| r.thread_id)),
            Err(e) => Err(Failure::Passing(format!("cannot read game {game}: {e}"))),
        }
    }

    /// Opens the thread of a new game (the announcement's content is its name) and adds its
    /// players. Where Discord refuses, the game is played in its channel, and the moderators
    /// are told once when a permission is missing.
    pub(super) async fn open_thread(
        &self,
        q: &QueuedAnnouncement,
        game: i64,
        channel: ChannelId,
        from: Option<db::MessageId>,
    ) -> Result<Option<db::MessageId>, Failure> {
        let row = match db::fetch_game(&self.pool, game).await {
            Ok(Some(row)) => row,
            Ok(None) => return Ok(None),
            Err(e) => return Err(Failure::Passing(format!("cannot read game {game}: {e}"))),
        };
        let stored = |e: db::DbError| Failure::Passing(format!("cannot store a thread: {e}"));
        // Opened already (a retry after a crash), or the game's channel is itself a game's
        // thread, where Discord opens no thread.
        if row.thread_id.is_some()
            || db::game_of_thread(&self.pool, channel)
                .await
                .map_err(stored)?
                .is_some()
        {
            return Ok(None);
        }
        let builder = || {
            serenity::CreateThread::new(q.body.content.clone())
                .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek)
        };
        let http = self.http.as_ref();
        let at = serenity::ChannelId::from(channel);
        let turn = self.turn(q).await;
        let mut made = match from {
            Some(m) => {
                at.create_thread_from_message(http, serenity::MessageId::from(m), builder())
                    .await
            }
            None => {
                at.create_thread(http, builder().kind(serenity::ChannelType::PublicThread))
                    .await
            }
        };
        drop(turn);
        // The challenge's message is gone, or has a thread already: a thread of its own.
        if from.is_some()
            && matches!(
                made.as_ref().map_err(Failure::of),
                Err(Failure::Refused {
                    code: 10008 | 160004,
                    ..
                })
            )
        {
            made = self
                .paced(
                    q,
                    at.create_thread(http, builder().kind(serenity::ChannelType::PublicThread)),
                )
                .await;
        }
        let thread = match made {
            Ok(thread) => ChannelId::from(thread.id),
            Err(e) => {
                return match Failure::of(&e) {
                    Failure::Passing(why) => Err(Failure::Passing(why)),
                    Failure::Refused { code, message, .. } => {
                        self.cannot_open_thread(&row, channel, code, &message)
                            .await
                            .map_err(stored)?;
                        Ok(None)
                    }
                }
            }
        };
        db::set_game_thread(&self.pool, game, Some(thread))
            .await
            .map_err(stored)?;
        if let Some(guild) = row.guild_id {
            db::clear_moderator_notice(&self.pool, guild, NOTICE_THREADS)
                .await
                .map_err(stored)?;
        }
        info!(game, %thread, "the game's thread is open");
        for &user in &q.body.concerned {
            let add = serenity::ChannelId::from(thread)
                .add_thread_member(http, serenity::UserId::from(user));
            if let Err(e) = self.paced(q, add).await {
                // Their first mention in the thread adds them too.
                warn!(game, %user, "cannot add a player to the game's thread: {e}");
            }
        }
        Ok(None)
    }

    /// Discord refused a game's thread: the game is played in its channel; a missing permission
    /// is told to the moderators once.
    pub(super) async fn cannot_open_thread(
        &self,
        row: &db::GameRow,
        channel: ChannelId,
        code: isize,
        message: &str,
    ) -> Result<(), db::DbError> {
        if !matches!(code, 50001 | 50013) {
            info!(game = row.id, %channel, "no thread for the game ({code}: {message}); it is played in its channel");
            return Ok(());
        }
        warn!(game = row.id, %channel, "cannot open a game's thread ({message}); it is played in its channel");
        self.tell_moderators(
            row,
            channel,
            NOTICE_THREADS,
            text!(
                "moderators-no-threads",
                channel = channel.to_string(),
                message = message
            ),
        )
        .await
    }

    /// A game's thread refused a message: the game goes on in its channel, and the moderators
    /// are told once: per server when a permission is missing, per game when the thread itself
    /// refuses (locked or archived by a moderator).
    pub(super) async fn thread_refused(
        &self,
        game: i64,
        channel: ChannelId,
        thread: ChannelId,
        code: isize,
        message: &str,
    ) -> Result<(), Failure> {
        let stored = |e: db::DbError| Failure::Passing(format!("cannot store a thread: {e}"));
        warn!(
            game,
            "the game's thread refused a message ({code}: {message}); going on in its channel"
        );
        db::set_game_thread(&self.pool, game, None)
            .await
            .map_err(stored)?;
        if code == 10003 {
            // The thread was deleted: nothing for a moderator to grant.
            return Ok(());
        }
        let Some(row) = db::fetch_game(&self.pool, game).await.map_err(stored)? else {
            return Ok(());
        };
        let (topic, notice) = if matches!(code, 50001 | 50013) {
            (
                NOTICE_THREAD_POSTS.to_string(),
                text!(
                    "moderators-no-thread-posts",
                    channel = channel.to_string(),
                    message = message
                ),
            )
        } else {
            (
                format!("{NOTICE_THREAD_LEFT}:{game}"),
                text!(
                    "moderators-thread-left",
                    thread = thread.to_string(),
                    game = game,
                    message = message
                ),
            )
        };
        self.tell_moderators(&row, channel, &topic, notice)
            .await
            .map_err(stored)
    }

    /// Archives a finished game's thread. Without the permission, the moderators are told once
    /// (the thread then closes by itself after a week without messages).
    pub(super) async fn archive(
        &self,
        q: &QueuedAnnouncement,
        game: i64,
        channel: ChannelId,
    ) -> Result<Option<db::MessageId>, Failure> {
        let Some(thread) = self.thread_of(game).await? else {
            return Ok(None);
        };
        let archive = serenity::ChannelId::from(thread).edit_thread(
            self.http.as_ref(),
            serenity::EditThread::new().archived(true),
        );
        let done = self.paced(q, archive).await;
        match done.map_err(|e| Failure::of(&e)) {
            Ok(_) => Ok(None),
            Err(Failure::Passing(why)) => Err(Failure::Passing(why)),
            Err(Failure::Refused { code, message, .. }) => {
                warn!(game, %thread, "cannot archive a finished game's thread ({code}: {message})");
                if matches!(code, 50001 | 50013) {
                    let stored =
                        |e: db::DbError| Failure::Passing(format!("cannot store a notice: {e}"));
                    if let Some(row) = db::fetch_game(&self.pool, game).await.map_err(stored)? {
                        self.tell_moderators(
                            &row,
                            channel,
                            NOTICE_ARCHIVE,
                            text!(
                                "moderators-no-archive",
                                channel = channel.to_string(),
                                message = message
                            ),
                        )
                        .await
                        .map_err(stored)?;
                    }
                }
                Ok(None)
            }
        }
    }

    /// Posts `text` for the moderators in `channel`, once per server and `topic`.
    pub(super) async fn tell_moderators(
        &self,
        row: &db::GameRow,
        channel: ChannelId,
        topic: &str,
        text: Text,
    ) -> Result<(), db::DbError> {
        let Some(guild) = row.guild_id else {
            return Ok(());
        };
        let mut tx = self.pool.begin().await?;
        if !db::claim_moderator_notice(&mut *tx, guild, topic, db::now_ms()).await? {
            return Ok(());
        }
        let lang = crate::play::server_lang(&mut *tx, Some(guild)).await?;
        let notice = Announcement {
            target: Target::Channel { channel },
            content: text.render(lang),
            mentions: Vec::new(),
            board: None,
            concerned: Vec::new(),
            lang: lang.tag().to_string(),
        };
        db::enqueue(&mut *tx, None, &notice).await?;
        tx.commit().await?;
        self.queued.notify_one();
        Ok(())
    }
}
