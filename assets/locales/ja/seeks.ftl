# 相手探し：`/相手探し` でサーバー内の対局相手を探す。条件の合う他のメンバーの相手探しがあればすぐに対局が
# 始まり、なければ誰でも承諾できるカードとして出される。

cmd-seek = このサーバーで対局相手を探します。条件の合う相手探しがあればすぐに対局、なければ誰でも受けられるよう掲示します。
    .name = 相手探し
opt-seek-game = どのゲームか
    .name = ゲーム
opt-seek-sizes = 対局してよい盤のサイズ（例：`7 9`。EXXIT はタイル数、例：`29 39`）。既定：標準
    .name = サイズ
opt-seek-other_game = ほかに対局してよいゲーム
    .name = ほかのゲーム
opt-seek-other_sizes = ほかのゲームのサイズ（例：`29 39`）。既定：標準
    .name = ほかのサイズ
opt-seek-days_per_move = 一手の持ち時間の最小（既定：3日）
    .name = 一手の日数
opt-seek-max_days_per_move = 一手の持ち時間の最大（既定：最小と同じ）
    .name = 一手の最大日数
opt-seek-rated = サーバーのレーティングに数える（既定：はい）
    .name = レーティング
opt-seek-expires = 相手を待つ期間（既定：24時間）
    .name = 募集期間
choice-other_game-0 = inpHeXion
choice-other_game-1 = EXXIT（エクシット）
choice-max_days_per_move-0 = 1日
choice-max_days_per_move-1 = 3日
choice-max_days_per_move-2 = 7日
choice-max_days_per_move-3 = 14日
opt-seek-keep = 常設：この数の対局（1〜10）を保つよう、対局が減るたびに相手を探し直す
    .name = 常設
opt-seek-stop = はい：このサーバーでのこのゲームの常設の相手探しをやめる
    .name = 常設をやめる
opt-seek-anywhere = はい：ほかのサーバーのプレイヤーとも組めるようにする（その場合、対局はダイレクトメッセージで行います）
    .name = サーバー外とも

seek-card =
    { $author } が対局相手を探しています：**{ $variants }**、{ $rated ->
        [yes] レーティング対象
       *[no] レーティング対象外
    }、{ $days }。<t:{ $until }:f> まで、ほかのメンバーなら誰でも承諾できます。{ $anywhere ->
        [yes] ほかのサーバーで同じく相手を探しているプレイヤーとも組めます（その場合、対局はダイレクトメッセージで行います）。
       *[no] {""}
    }{ $keep ->
        [0] {""}
       *[other] これは常設の相手探しです。{ $author } の対局がこの条件で { $keep }局に満たないあいだ、何度でも出し直されます。
    }
seek-days-one = 一手 { $days }日
seek-days-range = 一手 { $min }〜{ $max }日
seek-or = { $first } または { $then }
seek-matched = { $who } が { $author } の相手探しに応じました。対局 #{ $game }（{ $options }）が始まります。
seek-matched-at-once = { $who } と { $author } がどちらも対局相手を探していました。対局 #{ $game }（{ $options }、{ $days }）が今始まります。
seek-withdrawn = { $author } は相手探し（{ $variants }）を取り下げました。{ $standing ->
        [yes] 常設の相手探しも終了し、もう出し直されません。
       *[no] {""}
    }
seek-expired = { $author } の相手探し（{ $variants }）は、応じる人がいないまま期限切れになりました。
seek-taken = この相手探しには { $who } が先に応じました（対局 #{ $game }）。自分で相手を探すには `/{ cmd-seek.name }` を使ってください。
seek-closed = この相手探しはもう受け付けていません（{ $status ->
        [matched] 相手が決まりました
        [withdrawn] 取り下げられました
       *[expired] 期限切れです
    }）。相手を探すには `/{ cmd-seek.name }` を使ってください。
seek-gone = この相手探しはもうありません。相手を探すには `/{ cmd-seek.name }` を使ってください。
seek-own = これはあなた自身の相手探しです。ほかのメンバーが応じるのを待つか、取り下げてください。
seek-withdraw-own = この相手探しを取り下げられるのは、出したメンバーだけです。
seek-on-vacation = <t:{ $until }:f> まで休暇中です。今対局が始まると、休暇中に持ち時間が減ってしまいます。戻ってから相手を探してください。
seek-too-many = 受付中の相手探しが { $open }件あり、これが上限です。どれかを取り下げるか、相手が決まるか期限が来るのを待ってください。
seek-variant-count = 相手探しで指定できるのは 1〜{ $max }種類（ゲームとサイズの組み合わせ）です。
seek-variant-twice = { $variant } が2回指定されています。それぞれ1回だけ指定してください。
seek-days-bounds = 一手の持ち時間は { $min }〜{ $max }日で指定してください。
seek-days-reversed = 一手の最小日数（{ $min }日）が最大日数（{ $max }日）を上回っています。入れ替えてください。
seek-in-a-server = 相手探しはサーバーのメンバーの間で行います。サーバーで `/{ cmd-seek.name }` を使ってください。
seek-sizes-unreadable = `{ $input }` はサイズの並びとして読めません。`7 9` のように、数字を空白で区切って書いてください。
seek-other-sizes-alone = `{ opt-seek-other_sizes.name }` は `{ opt-seek-other_game.name }` と一緒に使います。ほかのゲームも指定してください。
seek-same-game = `{ opt-seek-other_game.name }` が `{ opt-seek-game.name }` と同じゲームです。両方のサイズを `{ opt-seek-sizes.name }` に書いてください。
button-accept-seek = 承諾：{ $variant }
button-stop-standing = 取り下げて常設をやめる
standing-keep-bounds = `{ opt-seek-keep.name }` は保つ対局の数です。{ $min }〜{ $max } で指定してください。
standing-too-many = このサーバーで常設の相手探しが { $max }件あり、これが上限です。`/{ cmd-seek.name } { opt-seek-stop.name }` でどれかをやめてください。
standing-twice = このサーバーには { $variant } の常設の相手探しがすでにあります。先に `/{ cmd-seek.name } { opt-seek-stop.name }` でやめてください。
standing-keep-and-stop = 常設の相手探しを出すなら `{ opt-seek-keep.name }`、やめるなら `{ opt-seek-stop.name }` の、どちらか一方だけを指定してください。
standing-none = このサーバーに { $game } の常設の相手探しはありません。出すには `/{ cmd-seek.name }` で `{ opt-seek-keep.name }` を指定してください。
seek-away = { $author } が休暇中のため、その相手探し（{ $variants }）は取り下げられました。
standing-paused = { $author } は休暇中のため、相手探し（{ $variants }）を一時停止しています。戻ると出し直されます。
standing-stopped = { $game } の常設の相手探し（{ $count }件）をやめました。もう出し直されず、受付中の相手探しは取り下げました。対局はそのまま続きます。
standing-set = 常設の相手探しを出しました。このサーバーで { $variants } の対局を { $keep }局保つよう、対局が減って受付中の相手探しがなければ、新しい相手探しを出します（休暇中は出しません）。{ $now ->
        [matched] すぐに相手が決まりました。対局 #{ $game } が始まります。
        [posted] 相手探しを <#{ $channel }> に掲示しました。
        [enough] すでにその数の対局があります。対局が終わると相手探しを出します。
       *[waiting] 対局できるようになったら相手探しを出します。
    }やめるには、カードの「取り下げて常設をやめる」を押すか、`/{ cmd-seek.name } { opt-seek-stop.name }` を使ってください。
privacy-table-standing_seeks = • 常設の相手探し（`/{ cmd-seek.name } { opt-seek-keep.name }`）：{ $count }件
seek-pool-closed = このサーバーのモデレーターは、サーバーをまたぐ相手探しに参加しない設定にしています。`{ opt-seek-anywhere.name }` を付けずに相手を探すか、モデレーターに相談してください。
standing-anywhere = 常設の相手探しはこのサーバーの中だけで組みます。`{ opt-seek-anywhere.name }` を外してください。
seek-matched-across = { $who } はほかのサーバーのプレイヤーと組みました。対局 #{ $game }（{ $options }、{ $days }）はわたしとのダイレクトメッセージで行い、手番のたびに盤面がそこに届きます。
seek-matched-elsewhere = { $author } の相手探し（{ $options }）は、ほかのサーバーのプレイヤーと組みました。対局はダイレクトメッセージで行います。
seek-across-started = { $who } の相手探しが、サーバーをまたいで決まりました。対局 #{ $game }（{ $options }、{ $days }）、相手は **{ $opponent }** です。対局はこのダイレクトメッセージで行います。{ $first ->
        [you] 先手はあなたです。
       *[opponent] 先手は相手です。
    }手番のたびに盤面がここに届きます。今後この相手と組まないようにするには `/{ cmd-block.name } { opt-block-game.name }:{ $game }` を使ってください。
place-direct = ダイレクトメッセージ
blocked-pair = どちらかが相手をブロックしているため、この二人の対局はできません。
seek-posted = 相手探しを <#{ $channel }> に掲示しました。そこで誰でも応じられます。対局が始まるとメンションでお知らせします。

## 相手探しのチャンネルとロール（モデレーター）

cmd-seeks = モデレーター：相手探しの設定（掲示するチャンネル、ゲームごとのロール、ほかのサーバーとの組み合わせ）。
    .name = 相手探し設定
opt-seeks-post_here = はい：相手の決まらない相手探しをこのチャンネルに掲示する／いいえ：掲示をやめる
    .name = ここに掲示
opt-seeks-game = ロールを設定・解除するゲーム
    .name = ゲーム
opt-seeks-role = そのゲームの相手探しごとに通知するロール（メンバーはボタンで付け外しできます）
    .name = ロール
opt-seeks-remove_role = はい：そのゲームの相手探しでロールに通知しない
    .name = ロール解除
opt-seeks-other_servers = はい（既定）：ほかのサーバーのメンバーとも組める／いいえ：このサーバーは参加しない
    .name = サーバー外
seeks-state = { $saved ->
        [yes] 保存しました。
       *[no] {""}
    }相手探しのチャンネル：{ $channel }。通知するロール：{ $roles }。サーバーをまたぐ相手探し：{ $across ->
        [closed] このサーバーは参加しない
       *[open] 参加する
    }。
seeks-none = なし
seeks-notice = ここに相手探しが掲示されます。`/{ cmd-seek.name }` で対局相手を探すか、下の相手探しに応じてください。{ $roles ->
        [yes] ゲームのボタンを押すと、そのゲームの相手探しで通知を受け取れます（もう一度押すと止まります）。
       *[no] {""}
    }
seeks-cannot-post = 保存していません。<#{ $channel }> に投稿できません：{ $why }
seeks-role-needs-game = ロールを設定・解除する `{ opt-seeks-game.name }` を指定してください。
seeks-role-and-remove = `{ opt-seeks-role.name }` と `{ opt-seeks-remove_role.name }` のどちらか一方だけを指定してください。
seeks-game-alone = `{ opt-seeks-game.name }` と一緒に、通知する `{ opt-seeks-role.name }` か `{ opt-seeks-remove_role.name }` を指定してください。
seeks-role-everyone = @everyone は相手探しのロールにできません。「inpHeXion プレイヤー」のような、メンバーが付けられるロールを作ってください。
seeks-role-managed = ロール `{ $role }` は連携アプリのもので、誰にも付けられません。別のロールを選んでください。
seeks-role-not-mentionable = ロール `{ $role }` をメンションできません。サーバー設定でこのロールを誰でもメンションできるようにするか、わたしに「すべてのロールにメンション」の権限を与えてください。保存していません。
seek-role-gone = このロールはもうこのサーバーの相手探しのロールではありません。
seek-role-taken = { $role } を付けました。新しい { $game } の相手探しで通知します。もう一度押すと止まります。
seek-role-dropped = { $role } を外しました。{ $game } の相手探しの通知は届きません。
seek-role-cannot = ロール { $role } を変更できませんでした。モデレーターが、わたしに「ロールの管理」の権限を与え、わたしのロールを { $role } より上にする必要があります。
button-seek-role = { $game } の相手探し：通知する／止める
privacy-table-seeks = • 出した相手探し（`/{ cmd-seek.name }`）：{ $count }件

## ウェブ盤のロビー：メンバーのサーバーの相手探しと対局の募集
lobby-seek = { $author } が対局相手を探しています：{ $variants }、{ $rated ->
        [yes] レーティング対象
       *[no] レーティング対象外
    }、{ $days }。
lobby-challenge = { $author } が対局相手を募集しています：{ $options }、{ $rated ->
        [yes] レーティング対象
       *[no] レーティング対象外
    }、{ $clock }。{ $author } が先手です。{ $ranged ->
        [yes] { $game } のレーティングが { $range }のメンバー向けです。
       *[no] {""}
    }
lobby-server-unknown = あるサーバー
lobby-started = 対局 #{ $game }（{ $options }）が { $server } で始まります。盤面はそこに投稿され、ここでも指せます。
lobby-not-member = { $server } のメンバーとして記録されていません。そのサーバーで hexcord のコマンドを一度使ってから、もう一度承諾してください。
privacy-table-server_members = • hexcord を使ったサーバー（その募集中の対局が受信箱に表示されます）：{ $count }件

## ブロック（`/ブロック`）
cmd-block = メンバーをブロックします（相手探しで組まれず、挑戦もされません）。一覧も出せます。
    .name = ブロック
opt-block-member = ブロックするメンバー
    .name = メンバー
opt-block-game = または対局の番号：その対局の相手をブロックする（サーバーをまたいだ対局など、同じサーバーにいない相手）
    .name = 対局
opt-block-undo = はい：ブロックを解除する
    .name = 解除
block-done = { $who } をブロックしました。相手探しで組まれることはなく、どちらも相手に挑戦したり、相手の挑戦や相手探しを受けたりできません。進行中の対局はそのまま続きます。解除するには、同じコマンドに `{ opt-block-undo.name }:True` を付けてください。
block-already = { $who } はすでにブロックしています。
block-undone = { $who } のブロックを解除しました。
block-not-blocked = { $who } はブロックしていません。何も変わっていません。
block-self = 自分自身はブロックできません。
block-bot = わたしはブロックできるメンバーではありません。わたしと対局したくなければ、`/{ cmd-play.name }` で対局を始めなければ大丈夫です。
block-name-one = `{ opt-block-member.name }` か `{ opt-block-game.name }` のどちらか一方を指定してください。
block-not-your-game = 対局 #{ $game } はあなたの対局ではありません。自分が指した対局を指定してください。
block-list = { $count ->
        [0] ブロックしているメンバーはいません。ブロックするには `/{ cmd-block.name } { opt-block-member.name }` を使ってください。
       *[other] ブロックしているメンバー：{ $names }。解除するには、そのメンバー（またはその相手との対局）を指定して `{ opt-block-undo.name }:True` を付けてください。
    }
privacy-table-blocks = • ブロック（`/{ cmd-block.name }`、あなたのものと、ほかのメンバーがあなたをブロックしたもの）：{ $count }件
