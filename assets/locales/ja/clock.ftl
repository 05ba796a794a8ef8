# 通信対局の時間：持ち時間の方式、週末休み、タイムゾーン、日次まとめ、一時中断。

clock-per-move-days = 一手 { $days }日
clock-per-move = 一手 { $time }
clock-fischer = フィッシャー方式：{ $initial }、一手ごとに { $increment } 追加、最大 { $cap }
clock-weekends-off = { $clock }、週末休み

opt-challenge-clock = 持ち時間の方式（既定：一手の日数）
    .name = 時間方式
opt-challenge-weekends_off = 手番の人のタイムゾーンで土曜0時から月曜0時まで時計を止める（既定：サーバーの設定）
    .name = 週末休み
opt-tournament-create-clock = 対局の持ち時間の方式（既定：一手の日数）
    .name = 時間方式
opt-tournament-create-weekends_off = 手番の人のタイムゾーンで週末は対局の時計を止める（既定：サーバーの設定）
    .name = 週末休み
choice-clock-0 = 一手の日数（既定）
choice-clock-1 = フィッシャー：1日＋一手ごとに1日、最大3日
choice-clock-2 = フィッシャー：3日＋一手ごとに1日、最大7日
choice-clock-3 = フィッシャー：7日＋一手ごとに2日、最大14日

opt-settings-timezone = あなたのタイムゾーン（IANA名、例：Asia/Tokyo。週末休みと日次まとめに使います）
    .name = タイムゾーン
opt-settings-notifications = 手番を待つ対局の知らせ方の頻度
    .name = お知らせ
opt-settings-digest_hour = 日次まとめを送る時刻（あなたのタイムゾーンで0〜23時）
    .name = まとめの時刻
choice-notifications-0 = 一手ごとに知らせる
choice-notifications-1 = 一日一回のまとめ（まとめの時刻に）
choice-notifications-2 = 知らせない
clock-zone-unknown = `{ $zone }` はタイムゾーンではありません。一覧から `Asia/Tokyo` や `Europe/Paris` のようなIANA名を選んでください。何も変更していません。
clock-digest-hour-bad = まとめの時刻は0〜23です。何も変更していません。
clock-zone-set = タイムゾーン：{ $zone }。
clock-zone-unset = タイムゾーン：未設定（サーバーの設定、なければUTC）。
clock-notifications-move = 一手ごとにお知らせします。
clock-notifications-digest = 毎日 { $hour }:00 に手番を待つ対局のまとめを送ります。
clock-notifications-none = 手番はお知らせしません。
clock-settings = { $settings }
    { $zone } { $heard }

clock-digest = { $who }、あなたの手番を待つ対局が { $count }局あります（残り時間の少ない順）：
    { $lines }
clock-digest-line = • #{ $game } { $title }（相手：{ $opponent }）：残り { $left } · { $link }
clock-digest-no-clock = 時間制限なし

pause-bad-days = 一時中断は1〜{ $most }日です（{ $days }日はできません）。何も変更していません。
pause-no-clock = 対局 #{ $game } には止める時計がありません。
pause-already-proposed = 対局 #{ $game } の一時中断の提案はすでに返事を待っています。
pause-already-running = 対局 #{ $game } は <t:{ $until }:f> まで一時中断中です。
pause-proposed = { $other }、{ $who } が対局 #{ $game } を { $days }日間一時中断することを提案しています。二人とも時計が止まります。下のボタンで受けるか断ってください。
pause-gone = この一時中断の提案はもうありません。
pause-answered = 対局 #{ $game } の一時中断にはすでに返事がありました。
pause-declined = { $who } が対局 #{ $game } の一時中断を断りました。時計は進みます。
pause-accepted = { $who } が受けました。対局 #{ $game } は <t:{ $until }:f> まで一時中断します。二人とも `/{ cmd-resume.name }` で早めに再開できます。
pause-not-running = 対局 #{ $game } は一時中断していません。
pause-resume-asked = 対局 #{ $game } の再開はすでに申し出ています。{ $other } の同意が必要です。
pause-resume-proposed = { $who } が対局 #{ $game } を今すぐ再開したいそうです。{ $other }、同意するなら `/{ cmd-resume.name }` を使ってください。
pause-resumed = 二人が同意しました。対局 #{ $game } の時計が再び進みます。
pause-accept = 中断する
pause-decline = 続ける

button-next-game = 次の対局

cmd-pause = 対局の時計を1〜14日止めることを提案します。
    .name = 一時中断
opt-pause-days = 何日間か（1〜14）
    .name = 日数
opt-pause-game = どの対局か（ここに複数あるとき）
    .name = 対局
cmd-resume = 二人とも申し出ると一時中断を早めに終えます。
    .name = 再開
opt-resume-game = どの対局か（ここに複数あるとき）
    .name = 対局

opt-server-weekends_off = 申し込みで指定がなければ新しい対局は週末休みにする（既定：オフ）
    .name = 週末休み
opt-server-timezone = タイムゾーン未設定のメンバーのタイムゾーン（既定：UTC）
    .name = タイムゾーン
choice-weekends_off-0 = オン
choice-weekends_off-1 = オフ
clock-server-state = 新しい対局の週末休み：{ $weekends ->
    [on] オン
   *[off] オフ
}。タイムゾーン未設定のメンバー：{ $zone }。
clock-server = { $settings }
    { $clock }
    { $theme }
