# 大会：告知、各ラウンド、順位表、コマンドとボタンへの返答。

tournament-card = 🏆 **{ $name }**（大会 #{ $id }）：{ $options } の{ $format }、{ $rated }、{ $time }。{ $players } { $start }
tournament-count = 参加者：{ $count }人。
tournament-count-of = 参加者：{ $count } / { $max }人。
tournament-starts-at = 受付は <t:{ $at }:R> に締め切ります。
tournament-starts-by-hand = 主催者が開始します。
tournament-running = 第{ $round }ラウンド（全{ $rounds }ラウンド）進行中。
tournament-finished = 終了しました。
tournament-cancelled-state = 中止になりました。
tournament-format-swiss = スイス式 { $rounds }ラウンド
tournament-format-round-robin = 総当たり
tournament-format-double-round-robin = 二回総当たり

tournament-begins = 🏁 **{ $name }** が { $count }人で始まります（{ $format }）。
tournament-called-off = **{ $name }** は中止です：参加 { $count }人、必要な人数は { $needed }人でした。
tournament-round = **{ $name }** 第{ $round }ラウンド（全{ $rounds }ラウンド）：
    { $lines }
tournament-pairing-line = 対局 #{ $game }：{ $white } – { $black }
tournament-bye-line = 不戦（バイ）：{ $who }（{ $points }点）
tournament-game-intro = **{ $name }** 第{ $round }ラウンド。
tournament-standings = **{ $name }** 第{ $round }ラウンド終了時の順位：
    { $lines }
tournament-standing-swiss = { $rank }. { $name }：{ $points }点、{ $games }局・ブッフホルツ（最低点除外）{ $buchholz }・ゾンネボーン・ベルガー { $sb }
tournament-standing-round-robin = { $rank }. { $name }：{ $points }点、{ $games }局・直接対決 { $direct }・ゾンネボーン・ベルガー { $sb }・勝ち数 { $wins }
tournament-withdrawn-name = { $name }（棄権）
tournament-final = 🏆 **{ $name }** が終了しました。優勝は { $winner }！
    { $table }
tournament-joined-late = { $who } が **{ $name }** に途中参加しました。すでに組まれた { $rounds }ラウンドはそれぞれ 0.5点の不戦になります。
tournament-withdrew = { $who } が **{ $name }** を棄権しました。
tournament-withdrawn-on-time = { $who } は **{ $name }** で { $losses }局を時間切れで落としたため、棄権扱いになりました。
tournament-forfeited = { $who } が大会を棄権しました。この対局は { $winner } の不戦勝です。
tournament-withdrawal-by = 棄権
tournament-removed = { $who } は主催者により **{ $name }** から除外されました。
tournament-left-server = { $who } はサーバーを退出したため、**{ $name }** を棄権扱いになりました。今後は組み合わせに入りません。
tournament-cancelled = **{ $name }** は { $who } により中止になりました。{ $games ->
    [0] 進行中の対局はありませんでした。
   *[other] 進行中の対局 { $games }局は結果なしで終わります。
}
tournament-cancellation-by = 大会の中止
tournament-game-called-off = **{ $name }** は中止になりました。この対局は結果なしで終わります。
tournament-paused = ⏸️ { $who } が **{ $name }** を一時停止しました。進行中の対局は続きますが、再開されるまで第{ $round }ラウンドは組まれません。
tournament-resumed = ▶️ { $who } が **{ $name }** を再開しました。前の対局がすべて終わりしだい、第{ $round }ラウンドが組まれます。
tournament-corrected = ✏️ { $who } が **{ $name }** の対局 #{ $game }（第{ $round }ラウンド）の結果を訂正しました：{ $now }（訂正前：{ $was }）。順位表にも反映されます。
tournament-pairings-kept = 第{ $round }ラウンドまでのすでに決まった組み合わせはそのままです。以降のラウンドは訂正後の結果で組まれます。
tournament-result-win = { $winner } が { $loser } に勝ち
tournament-result-forfeit = { $winner } が { $loser } に不戦勝
tournament-result-draw = { $a } と { $b } は引き分け
tournament-result-void = { $a } – { $b } は結果なし

tournament-you-joined = **{ $name }** に参加しました。始まるとここで対局が始まります。
tournament-you-joined-late = **{ $name }** に途中参加しました。すでに組まれた { $rounds }ラウンドはそれぞれ 0.5点の不戦となり、次のラウンドから組み合わせに入ります。
tournament-you-left = **{ $name }** への参加を取りやめました。
tournament-you-withdrew = **{ $name }** を棄権しました。今後は組み合わせに入りません。
tournament-you-removed = { $who } を **{ $name }** から棄権扱いにしました。今後は組み合わせに入りません。
tournament-you-cancelled = **{ $name }** を中止しました。参加者には大会のチャンネルで知らせます。
tournament-you-paused = **{ $name }** の次のラウンドを一時停止しました。主催者が再開する（`/大会` の「再開」）まで止まります。
tournament-you-resumed = **{ $name }** を再開しました。前の対局がすべて終わりしだい、次のラウンドが組まれます。
tournament-you-corrected = 対局 #{ $game } の結果を「{ $now }」に訂正しました。順位表にも反映されます。
tournament-exported = **{ $name }** の FIDE TRF ファイルです（{ $rounds ->
    [0] まだラウンドはありません
   *[other] 第{ $rounds }ラウンド終了時点
}。進行中のラウンドは含みません）。`hexcord pairings` で読めます。

tournament-not-found = 大会 #{ $id } はありません。
tournament-other-server = 大会 #{ $id } は別のサーバーの大会です。そちらで参加してください。
tournament-over = **{ $name }** は終了しています。
tournament-already-joined = すでに **{ $name }** に参加しています。
tournament-full = **{ $name }** は満員です（{ $max }人）。
tournament-started = **{ $name }** はすでに始まっていて、これ以上参加できません。
tournament-leave-started = **{ $name }** はすでに始まっています。取りやめではなく棄権してください。
tournament-not-joined = **{ $name }** に参加していません。
tournament-already-withdrawn = すでに **{ $name }** を棄権しています。
tournament-withdraw-not-started = **{ $name }** はまだ始まっていません。棄権ではなく参加を取りやめてください。
tournament-already-started = **{ $name }** はすでに始まっています。
tournament-start-not-allowed = **{ $name }** を開始できるのは、主催者か、サーバーまたはイベントの管理権限を持つメンバーだけです。
tournament-organisers-only = これができるのは **{ $name }** の主催者か、サーバーまたはイベントの管理権限を持つメンバーだけです。
tournament-not-running = **{ $name }** は進行中ではありません。次のラウンドの一時停止と再開は、進行中の大会だけです。
tournament-already-paused = **{ $name }** はすでに一時停止しています。
tournament-not-paused = **{ $name }** は一時停止していません。
tournament-not-a-player = { $who } は **{ $name }** に参加していません。
tournament-player-withdrawn = { $who } はすでに **{ $name }** を棄権しています。
tournament-not-its-game = 対局 #{ $game } は大会の対局ではありません。
tournament-game-undecided = 対局 #{ $game } はまだ対局中です。訂正できるのは決着した結果だけです。
tournament-result-unchanged = 対局 #{ $game } はすでにその結果です。
tournament-export-not-started = **{ $name }** はまだ始まっていないので、書き出すものがありません。
tournament-too-few = **{ $name }** の参加者は { $count }人です。開始には { $needed }人以上必要です。
tournament-create-not-allowed = このサーバーでは、大会を作成できるのはサーバーまたはイベントの管理権限を持つメンバーだけです。
tournament-bad-name = 大会名は 1〜{ $max }文字の一行にしてください。
tournament-bad-limit = 定員 { $max }人では開催できません。2〜{ $most }人で選んでください。
tournament-rounds-needed = スイス式の大会にはラウンド数が必要です。
tournament-bad-rounds = { $rounds }ラウンドでは開催できません。1〜{ $most } で選んでください。
tournament-rounds-swiss-only = ラウンド数を選べるのはスイス式だけです。総当たりのラウンド数は参加人数で決まります。
tournament-too-many-rounds = スイス式 { $rounds }ラウンドには { $rounds }+1人以上が必要ですが、定員は { $players }人です。ラウンドを減らすか定員を増やしてください。
tournament-start-past = 受付の締め切りは未来の時刻にしてください。

button-join = 参加
button-leave = 取りやめ
tournament-none-here = このサーバーには受付中または進行中の大会がありません。大会の番号を指定するか、大会を作成してください。
answer-tournament-created = 大会 #{ $id } の参加受付を始めました。
tournament-line-break = { $before }
    { $after }
tournament-standings-alt = { $name } 第{ $round }ラウンド終了時の順位表：{ $players }人の得点、対局数、タイブレーク。
tournament-result-line = 🏆 **{ $name }** が終了しました。優勝は { $winner }！最終順位は { $thread } にあります。
