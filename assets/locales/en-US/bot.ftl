# hexcord's texts in English: answers, announcements, buttons and menus of the bot.
# Each message id is used by the code (`text!("id", …)`); every language has the same ids and
# the same variables.

## Failures

apology = Sorry, something went wrong on my side. It has been logged; please try again in a moment.
game-changed = Game #{ $game } changed while you were acting (the position is not the one you saw). Look at the new board and try again.
option-unreadable = I could not read { $input }: { $error }. Type `/{ $command }` and pick from the suggestions.
an-option = an option
