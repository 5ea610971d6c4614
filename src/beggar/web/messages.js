// @ts-check
/**
 * @file What the server sends the page over a table's WebSocket, described once as JSDoc types.
 *
 * The page's scripts name these types (from static/js/: `import("../../messages.js").TableState`);
 * nothing in this file runs. The server builds a `state` in beggar/web/view.py and the other
 * messages in beggar/web/handler.py; tests/web/test_view.py checks that every key the server sends
 * is described here, and that every property described here is sent.
 *
 * One thing more comes in a header rather than a message: a table's page (`/t/<id>`) carries
 * `Beggar-Seat: free` where someone new opening it would sit down (the page asks their name
 * first), `taken` where every seat is held (they watch). See beggar/web/app.py's SEAT_HEADER.
 */

/**
 * One state of the table, as one person sees it: the shared view (the same for everyone at the
 * table) and what is theirs alone (`you`, `prompt`, `notice`, `result`, `log`, `rules`, `history`...).
 *
 * @typedef {Object} TableState
 * @property {"state"} type
 * @property {number | null} you - this person's seat; null for a spectator
 * @property {string} prompt - what is happening, said from this person's seat ("Queen: you owe 2.")
 * @property {string} notice - what this person should know of the others ("" if nothing)
 * @property {string} result - once the game is over, how it ended, from this person's seat: who
 *   won, or why it stopped and what that awards, and with three players or more when this person
 *   went out ("Bea wins, holding all 52 cards. You went out after 212 cards, the first to go out.");
 *   "" while the game is played
 * @property {string} headline - once the game is over, who won, said once from this person's seat
 *   ("You lost: Robin took all 52 cards."), with three players or more when this person went out;
 *   "" while the game is played
 * @property {string} ending - once the game is over, `over.sentence` told to this person ("You win
 *   with all 52 cards, after 40 cards and 9 tricks."); "" while the game is played
 * @property {string} taken - while the pile a trick left is still empty, who took it and how many
 *   cards, from this person's seat ("Queen paid: you take 6 cards."); "" otherwise
 * @property {string[]} new_game_answers - when others asked for a new game and this person has
 *   not: the words of the two buttons that answer, agree and keep playing ("Agree to a new game",
 *   "Keep playing"; "Play again", "No" once the game is over), which the notice names too; [] else
 * @property {LogLine[]} log - the log lines this browser does not have yet, oldest first
 * @property {RulesEntry} [rules] - the table's rules: with a connection's first state only
 * @property {number} history_start - where the chart points sent begin
 * @property {number[][]} history - every hand's size after each trick, from history_start
 *   (only once the game is over, or at a famous game); a game stopped in the middle of a trick
 *   ends with one point more, the hands it ended with (its result's counts)
 * @property {number | null} since - when the oldest change this state carries happened (seconds
 *   since the epoch, server time); null if none is pending
 * @property {string} table - the table's id
 * @property {"computer" | "friends" | "watch" | "lesson" | "famous"} mode
 * @property {boolean} kept - one person's table that outlives a reload (a game against the
 *   computer, a watched game): Back keeps it, and the home page links back to it
 * @property {boolean} addressed - the table has its own address (`/t/<id>`) that a reload, Back
 *   and Forward come back to: a kept table or a friend table; Back from it is not leaving it, and
 *   the home page links back to it
 * @property {boolean} solo - one person's table whose cards may turn by themselves: a page hidden
 *   from its person pauses it
 * @property {number} version - counts the table's changes
 * @property {number} at - when the table last changed (seconds since the epoch, server time)
 * @property {SeatState[]} seats
 * @property {CardJson[]} pile - the pile, oldest card first
 * @property {number | null} to_play - the seat to turn next; null once the game is over, and while
 *   the table waits for its people (`waiting_for`)
 * @property {number} owed - cards still owed for the pay card being paid for
 * @property {number | null} challenge - where on the pile that pay card lies (0: the oldest)
 * @property {number | null} creditor - the seat that turned it
 * @property {number} cards - cards turned in this game
 * @property {number} tricks - tricks taken in this game
 * @property {number} games_played - games played at this table before this one
 * @property {boolean} paused
 * @property {"slow" | "normal" | "fast" | "instant"} pace
 * @property {LastCard | null} last_card
 * @property {LastTake | null} last_take
 * @property {number | null} time_left - seconds left under a time limit; null without one
 * @property {GameOver | null} over - how the game ended; null while it is played
 * @property {boolean} closed - the table is closed
 * @property {string[]} waiting_for - at a friend table, the seats still waiting for their person
 * @property {string | null} paused_why - why the game is paused, for everyone, by name
 * @property {number[]} new_game_asked - the seats whose people asked for a new game
 * @property {number} reshuffles - deals gathered and dealt again in this sitting
 * @property {LessonState} [lesson] - at a lesson only
 * @property {FamousGame} [famous] - at a famous game only
 */

/**
 * One seat of the table.
 *
 * @typedef {Object} SeatState
 * @property {string} name - "a friend" ("a second friend"...) for a friend's seat nobody took yet
 *   that has no name
 * @property {boolean} named - a person's own name, or a computer's; false while a person's seat is
 *   called by its place ("Player 2") because they gave none
 * @property {boolean} human - a person's seat (not the computer's)
 * @property {boolean} taken - someone holds it
 * @property {boolean} connected - a browser of its person is connected
 * @property {boolean} automatic - its cards are turned for its person
 * @property {"left" | "elsewhere" | "lost" | null} away - its person left on purpose, went to
 *   another page (their page said so as it went: Back, a link, a closed tab), or lost the connection
 * @property {boolean} absent - away long enough for the others to go on without them
 * @property {boolean} stand_in - the computer plays for its absent person
 * @property {number} cards - cards in its stack
 * @property {boolean} out - out of the game
 * @property {CardJson[]} [stack] - its stack, top card first: with open hands (a lesson) only
 */

/**
 * A face-up card as the page draws it.
 *
 * @typedef {Object} CardJson
 * @property {string} rank - "A", "K", "Q", "J", "10"... ("" for a compact deal's number card)
 * @property {string} suit - "C", "D", "H", "S" ("" without a suit)
 * @property {string} label - the card as written in a deal ("QH", "-")
 * @property {number} pays - what it asks for under the table's rules (0: a card that pays nothing)
 */

/**
 * One line of the game log, told to the person it is sent to: "You owe 2." where it names their
 * own seat.
 *
 * @typedef {Object} LogLine
 * @property {number} seq - counts the table's log lines
 * @property {string} text
 * @property {string} note - a lesson's note on this card ("" if none)
 */

/**
 * The rules a table plays by.
 *
 * @typedef {Object} RulesEntry
 * @property {string} name - the rules spec ("standard:players=3")
 * @property {string} title - its plain title: the preset's, and the house rules added to it
 *   ("Practice table + 1 house rule (open hands)"); at a friend table whose creator chose the
 *   deal, that they did (", on a deal its creator chose"), never the deal itself
 * @property {string} summary - the settings a player most needs, in plain words ("a standard deck
 *   of 52 cards, 2 players, stops after 4,000 cards"); "" at a lesson
 * @property {Object<string, string>} settings - every setting, in the spec's own words
 */

/**
 * The card turned last.
 *
 * @typedef {Object} LastCard
 * @property {number} seat
 * @property {CardJson} card
 * @property {number} number - the card's number in the game (1: the first)
 * @property {number} value - its pay value (0: a card that pays nothing)
 */

/**
 * The trick taken last.
 *
 * @typedef {Object} LastTake
 * @property {number} seat - who took it
 * @property {number} count - the cards of the pile taken
 * @property {number} trick - the trick's number
 */

/**
 * How a game ended.
 *
 * @typedef {Object} GameOver
 * @property {"finished" | "loop" | "stopped"} status
 * @property {number} cards
 * @property {number} tricks
 * @property {number | null} winner
 * @property {string} reason
 * @property {string} outcome
 * @property {number[]} holdings - each seat's cards at the end
 * @property {number} first - the seat that led
 * @property {RepeatOf | null} repeat_of - where a loop's position was seen first
 * @property {string} sentence - the ending, by name
 * @property {string} why - why a game nobody won outright stopped, naming no one ("Stopped by the
 *   card limit after 20 cards and 3 tricks."); "" for a game won with every card
 * @property {string} deal - the deal, now that it may be seen
 * @property {string[][]} deal_hands - each hand's cards, top first
 * @property {string | null} replay - the replay's id, once the game is stored
 * @property {DealtAgain[]} dealt_again - the deals of this sitting gathered and dealt again
 *   before this one (a loop under the family table), oldest first; [] if none
 * @property {string} notes - what the end says besides who won: how the deals before it ended
 *   ("The first deal looped after 474 cards and was dealt again."), and that the table's creator
 *   chose this deal ("The table's creator chose this deal (deal number 7)."); "" if nothing
 */

/**
 * A deal of the sitting that was gathered and dealt again.
 *
 * @typedef {Object} DealtAgain
 * @property {number} cards - cards turned before it was dealt again
 * @property {boolean} looped - it looped (else a limit stopped it)
 * @property {string | null} replay - its replay's id, if it was stored
 */

/**
 * A finished game told card by card (`/api/replay/<id>`; beggar/web/replay.py builds it). The page
 * only draws its frames.
 *
 * @typedef {Object} Replay
 * @property {string[]} names - each seat's name, as the table showed it ("You" for the seat it is
 *   told from, where its person gave no name)
 * @property {RulesEntry} rules
 * @property {string} deal - the deal, as written
 * @property {ReplayFrame[]} frames - frame i is the table just after card i (frame 0: before the first)
 * @property {ReplayOver | null} over - how it ended; null for a game stopped before its end
 * @property {string} [title] - a famous game's or a found deal's title
 * @property {CycleJson | null} [cycle] - where a never-ending game's cycle starts, and its period
 * @property {"computer" | "friends" | "watch" | "lesson" | "famous"} [mode] - a game played here:
 *   its table's mode
 * @property {number | null} [you] - a game played here: the seat it is told from (null: by names)
 * @property {boolean} [finished] - a game played here: it ended (not stopped when its table closed)
 * @property {DealtAgain[]} [dealt_again] - a game played here: the deals of its sitting dealt
 *   again before it, oldest first, each with its own replay
 * @property {string} [notes] - a game played here: how those deals ended, in words
 * @property {string | null} [dealt_next] - a game played here that looped and was dealt again:
 *   the replay of the deal dealt after it (null: none)
 */

/**
 * The table just after one card of a replay.
 *
 * @typedef {Object} ReplayFrame
 * @property {number | null} seat - who turned the card (null in the frame before the first card)
 * @property {CardJson | null} card - the card turned
 * @property {number} owed - what the next player then owes
 * @property {number | null} to_play - who turns next
 * @property {number} pile - how many cards the pile holds: always the last `pile` cards turned
 * @property {number[]} stacks - every stack's size
 * @property {number} trick - the trick's number if this card won a pile, else 0
 * @property {string} text - the narrator's sentence
 * @property {number | null} challenge - where on the pile the card being paid for lies (null: none)
 */

/**
 * How a replayed game ended: the game's record, and its ending in words.
 *
 * @typedef {Object} ReplayOver
 * @property {"finished" | "loop" | "stopped"} status
 * @property {number} cards
 * @property {number} tricks
 * @property {number | null} winner
 * @property {string} reason
 * @property {string} outcome
 * @property {number[]} holdings - each seat's cards at the end
 * @property {number} first - the seat that led
 * @property {RepeatOf | null} repeat_of - where a loop's position was seen first
 * @property {string} sentence - the ending, told from the seat the replay is told from
 */

/**
 * @typedef {Object} RepeatOf
 * @property {number} cards
 * @property {number} tricks
 */

/**
 * @typedef {Object} LessonState
 * @property {number} number
 * @property {string} title
 * @property {string} outro
 * @property {string} sentence - the sentence for the card turned last: the lesson's note on it, or
 *   where it has none, the narrator's sentence for it; before the first card, the lesson's
 *   introduction. Never empty.
 * @property {number | null} next - the next lesson's number; null after the last
 */

/**
 * A famous game: a published one (finder, year, note...) or a never-ending deal found by this
 * server's cycle factory (key, rules...).
 *
 * @typedef {Object} FamousGame
 * @property {string} title
 * @property {string} [finder]
 * @property {number} [year]
 * @property {string} deal
 * @property {number | null} cards - a published game's length; a found deal's deck size
 * @property {number | null} [tricks]
 * @property {number | null} [cycle_tricks]
 * @property {CycleJson | null} cycle - where the game's cycle starts, and its period
 * @property {string} [note]
 * @property {string} [key] - a found deal's name in links
 * @property {string} [rules] - a found deal's rules spec
 * @property {string} [rules_title]
 */

/**
 * @typedef {Object} CycleJson
 * @property {number} pre_period_tricks
 * @property {number} pre_period_cards
 * @property {number} period_tricks
 * @property {number} period_cards
 */

/**
 * The answer to a create or a join: where this person sits.
 *
 * @typedef {Object} Joined
 * @property {"joined"} type
 * @property {string} table
 * @property {number | null} seat - null for a spectator
 * @property {string | null} token - the secret that holds the seat (keep it to come back)
 * @property {string} link - the table's link
 * @property {"computer" | "friends" | "watch" | "lesson" | "famous"} mode
 * @property {boolean} kept - as in a state
 * @property {boolean} addressed - as in a state
 */

/**
 * A request the server refused.
 *
 * @typedef {Object} ErrorMessage
 * @property {"error"} type
 * @property {string} message - one plain sentence
 * @property {"no-table"} [code] - the table is closed or never existed
 * @property {string} [field] - the setting of a new table the error is about
 */

/**
 * @typedef {Object} Pong
 * @property {"pong"} type
 */

/**
 * The person left the table.
 *
 * @typedef {Object} Left
 * @property {"left"} type
 */

/**
 * @typedef {TableState | Joined | ErrorMessage | Pong | Left} ServerMessage
 */

export {};
