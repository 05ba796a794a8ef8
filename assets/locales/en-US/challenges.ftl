# Open challenges: `/challenge` without an opponent, for any member of the server.

opt-challenge-min_rating = Open challenge: the lowest rating (in this game here) of who may accept
    .name = min_rating
opt-challenge-max_rating = Open challenge: the highest rating (in this game here) of who may accept
    .name = max_rating
opt-challenge-expires = Open challenge: how long it stays open (default: 24 hours)
    .name = expires
choice-expires-0 = 1 hour
choice-expires-1 = 6 hours
choice-expires-2 = 24 hours (default)
choice-expires-3 = 3 days
choice-expires-4 = 7 days

open-challenge-card =
    { $challenger } is looking for an opponent: **{ $options }**, { $rated ->
        [yes] rated
       *[no] unrated
    }, { $clock }. { $challenger } plays { $colour } and moves first.
    { $ranged ->
        [yes] Any member rated { $range } in { $game } here may accept
       *[no] Any member may accept
    } until <t:{ $until }:f>.
open-challenge-accepted = { $who } accepted the open challenge of { $challenger }: game #{ $game } ({ $options }) starts below.
open-challenge-withdrawn = { $challenger } withdrew their open challenge ({ $options }).
open-challenge-expired = The open challenge of { $challenger } ({ $options }) expired: nobody accepted it.
open-challenge-taken = { $who } accepted this open challenge first: it is game #{ $game }. To post your own, use `/{ cmd-challenge.name }` without `{ opt-challenge-opponent.name }`.
open-challenge-own = This is your own open challenge: wait for another member to accept it, or withdraw it.
open-challenge-no-decline = An open challenge is for anyone, so no one declines it: leave it for another member, or accept it.
open-challenge-out-of-range = This open challenge is for members rated { $range } in { $game } here; your rating is { $rating }.
open-challenge-range-reversed = The lowest rating ({ $min }) is above the highest ({ $max }): swap them.
open-challenge-range-bounds = A rating bound must be between 0 and { $max }.
open-challenge-only-options = `{ opt-challenge-min_rating.name }`, `{ opt-challenge-max_rating.name }` and `{ opt-challenge-expires.name }` are for open challenges: leave out `{ opt-challenge-opponent.name }` to use them.
open-challenge-in-a-server = An open challenge is posted in a server's channel for its members to accept: here, name an `{ opt-challenge-opponent.name }`.
rating-range-between = from { $min } to { $max }
rating-range-at-least = { $min } or more
rating-range-at-most = up to { $max }
rating-range-any = any
