# 対局の募集：相手を指定しない `/挑戦`。サーバーのメンバーなら誰でも受けられる。

opt-challenge-min_rating = 募集：受けられるメンバーの最低レーティング（このサーバーのこのゲーム）
    .name = 最低レーティング
opt-challenge-max_rating = 募集：受けられるメンバーの最高レーティング（このサーバーのこのゲーム）
    .name = 最高レーティング
opt-challenge-expires = 募集：受け付ける期間（既定：24時間）
    .name = 募集期間
choice-expires-0 = 1時間
choice-expires-1 = 6時間
choice-expires-2 = 24時間（既定）
choice-expires-3 = 3日
choice-expires-4 = 7日

open-challenge-card =
    { $challenger } が対局相手を募集しています：**{ $options }**、{ $rated ->
        [yes] レーティング対象
       *[no] レーティング対象外
    }、{ $clock }。{ $challenger } が{ $colour }で先手です。
    { $ranged ->
        [yes] このサーバーの { $game } のレーティングが { $range }のメンバーなら
       *[no] どのメンバーでも
    }、<t:{ $until }:f> まで承諾できます。
open-challenge-accepted = { $who } が { $challenger } の募集を受けました。対局 #{ $game }（{ $options }）が下で始まります。
open-challenge-withdrawn = { $challenger } は対局の募集（{ $options }）を取り下げました。
open-challenge-expired = { $challenger } の対局の募集（{ $options }）は、受ける人がいないまま期限切れになりました。
open-challenge-taken = この募集は { $who } が先に受けました（対局 #{ $game }）。自分で募集するには、`{ opt-challenge-opponent.name }` を指定せずに `/{ cmd-challenge.name }` を使ってください。
open-challenge-own = これはあなた自身の募集です。ほかのメンバーが受けるのを待つか、取り下げてください。
open-challenge-no-decline = 募集は誰でも受けられるものなので、辞退はありません。ほかのメンバーに任せるか、承諾してください。
open-challenge-out-of-range = この募集は、このサーバーの { $game } のレーティングが { $range }のメンバー向けです。あなたのレーティングは { $rating } です。
open-challenge-range-reversed = 最低レーティング（{ $min }）が最高レーティング（{ $max }）を上回っています。入れ替えてください。
open-challenge-range-bounds = レーティングの範囲は 0〜{ $max } で指定してください。
open-challenge-only-options = `{ opt-challenge-min_rating.name }`・`{ opt-challenge-max_rating.name }`・`{ opt-challenge-expires.name }` は募集のときだけ使えます。`{ opt-challenge-opponent.name }` を指定せずに使ってください。
open-challenge-in-a-server = 募集はサーバーのチャンネルに出し、そのメンバーが受けるものです。ここでは `{ opt-challenge-opponent.name }` を指定してください。
rating-range-between = { $min }〜{ $max }
rating-range-at-least = { $min }以上
rating-range-at-most = { $max }以下
rating-range-any = 制限なし
