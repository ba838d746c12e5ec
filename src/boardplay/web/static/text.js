// Every user-visible string of the front end, by key, and the viewer's language. The table EN is
// the English source: `make i18n` extracts it into the `web` message catalogue (each key its
// msgctxt, docs/i18n.md), and the page shows the catalogue of the chosen language over it.
// t("key", {name}) fills {name}; say(parts) puts a move's words (sent as phrases) in that language.
const EN = {
  "nav.lobby": "Lobby",
  "nav.replay": "Open a record",
  "nav.language": "Language",
  "nav.main": "Main",
  "nav.loading": "Loading…",
  "error.title": "Something went wrong",
  "error.back": "Back to the lobby",
  "error.request": "request failed ({status})",
  "error.notJson": "that file is not JSON",
  "conn.live": "live",
  "conn.reconnecting": "reconnecting…",
  "conn.queued": "offline: your move is kept and sent when the connection is back",
  "lobby.newGame": "New game",
  "lobby.game": "Game",
  "lobby.rules": "Rules",
  "lobby.seats": "Seats",
  "lobby.reproducible": " Reproducible (the seed is shown to everyone)",
  "lobby.reproducibleTitle": "chance follows a seed shown to every player; each invited player must agree",
  "lobby.create": "Create game",
  "lobby.mine": "My games",
  "lobby.open": "Open games",
  "lobby.recent": "Recent games (watch)",
  "lobby.none": "None.",
  "lobby.toMove": "{name} to move",
  "lobby.play": "Play",
  "lobby.view": "View",
  "lobby.join": "Join",
  "lobby.watch": "Watch",
  "lobby.replay": "Replay",
  "lobby.joinReproducible": "This game is reproducible: its creator chose the seed its luck follows. Join anyway?",
  "seat.me": "Me",
  "seat.hotseat": "Hot-seat (this screen)",
  "seat.ai": "AI",
  "seat.invite": "Invited player (link)",
  "seat.open": "Open seat (lobby)",
  "join.title": "You are invited to {title}",
  "join.free": " (free)",
  "join.yourSeat": "You will play {side} (seat {n}).",
  "join.reproducible": " This game is reproducible: its luck follows seed {seed}, chosen by its creator. I agree.",
  "join.name": "Name",
  "join.placeholder": "your name",
  "join.accept": "Take the seat",
  "game.undo": "Undo step",
  "game.download": "Download record",
  "game.replay": "Replay",
  "game.rules": "Rules",
  "game.textPicture": "Text picture",
  "game.moves": "Moves",
  "game.reproducible": "reproducible (seed {seed})",
  "game.reproducibleTitle": "chance follows this seed, known to everyone",
  "game.over": "Game over: {result}",
  "game.ends": " The game ends: {result}.",
  "result.wins": "{name} wins",
  "result.draw": "a draw",
  "status.active": "in play",
  "status.finished": "finished",
  "game.thinking": "{name} is thinking…",
  "game.yourMove": "Your move ({name})",
  "game.step": " — step {n} of this turn",
  "game.toMove": "{name} to move",
  "game.otherMoves": "Other moves:",
  "game.invite": "Invitation link for seat {n}: ",
  "game.copy": "Copy",
  "game.copied": "Copied",
  "game.lookBack": "Looking back at move {n} of {total}",
  "game.lookBefore": "Looking back at the position before move {n} of {total}",
  "game.backToNow": "Back to the game",
  "game.lastMove": "Last turn: {words}",
  "game.cancel": "cancel",
  "game.losingMove": "This move ends the game, and not in your favour: {words} Play it anyway?",
  "game.chance": "chance",
  "game.winner": "winner",
  "seatlist.you": " (you)",
  "seatlist.ai": " [AI {spec}]",
  "seatlist.hotseat": " [hot-seat]",
  "seatlist.waiting": " [waiting]",
  "replay.open": "Open a game record",
  "replay.choose": "Choose a boardplay record file (JSON) to step through it.",
  "replay.title": "Replay: {title}",
  "replay.result": "Result: {result}",
  "replay.after": "After move {n}: {words}",
  "replay.start": "The start of the game",
  "replay.first": "First",
  "replay.prev": "Previous",
  "replay.next": "Next",
  "replay.last": "Last",
  "rules.back": "← Lobby",
  "hint.ask": "Hint",
  "hint.title": "Hint:",
  "hint.text": "{words} (your chance to win: about {chance})",
  "hint.effort": "the best move a short search found; it is marked on the board",
  "review.title": "Review",
  "review.about": "A search judges every decision: the chance to win over the game, and the moves that lost the most.",
  "review.seat": "Seat",
  "review.start": "Review this game",
  "review.starting": "Starting the review…",
  "review.progress": "Judging positions: {done} of {total}",
  "review.failed": "The review failed; try again.",
  "review.chartLabel": "Chance to win of {name} over the game",
  "review.axis": "move {n}",
  "review.summary": "Moves judged: {judged}, at {iterations} search iterations each. Mistakes (a loss of {mistake} or more): {mistakes}. Blunders ({blunder} or more): {blunders}.",
  "review.none": "No mistakes or blunders at this search budget.",
  "review.mistake": "Mistake",
  "review.blunder": "Blunder",
  "review.lost": "Move {n} · lost {loss}",
  "review.marked": "The better move is marked on the board.",
  "review.flagLine": "{verdict}: {head}. {words}",
  "review.better": "Better: {words} (chance to win {chance})",
  "proteus.pool": "pool",
  "proteus.blackHand": "Black's hand",
  "proteus.whiteHand": "White's hand",
  "proteus.move": "move",
  "proteus.trade": "trade",
  "proteus.goal": "goal",
  "proteus.pass": "pass",
  "proteus.label": "Proteus board; {name} to move",
  "proteus.selectCell": "select the piece or tile on {cell}",
  "proteus.selectTile": "select the {rule} tile from the pool",
  "proteus.selectPiece": "select your {shape} from your hand",
  "proteus.shape.c": "circle",
  "proteus.shape.s": "square",
  "proteus.shape.t": "triangle",
  "passtally.label": "Passtally board",
  "passtally.selectMarker": "select your marker on slot {slot}",
  "passtally.selectPile": "select the tile of pile {pile}",
  "montana.label": "Montana board",
  "montana.legend": "What the pictures mean",
  "montana.piece.c": "small copper",
  "montana.piece.C": "large copper",
  "montana.piece.s": "small stone",
  "montana.piece.S": "large stone",
  "montana.piece.g": "grain",
  "montana.piece.p": "pumpkin",
  "montana.piece.Cu": "copper worker",
  "montana.piece.St": "stone worker",
  "montana.piece.Gr": "grain worker",
  "montana.piece.Pu": "pumpkin worker",
  "montana.piece.W": "wild worker (any colour you choose)",
  "montana.piece.any": "workers of any colour",
  "montana.piece.silver": "silver",
  "montana.piece.cattle": "cattle",
  "montana.piece.canteen": "canteen (an extra turn)",
  "montana.piece.settlement": "settlement",
  "montana.piece.double": "double settlement hex (a free second tile)",
  "montana.piece.start": "start tile: build next to it or to your own settlements",
  "montana.piece.contractor": "contractor (General Store)",
  "montana.map": "Landscape",
  "montana.mapPan": "The landscape is wider than the screen: swipe it sideways to see all of it.",
  "montana.hex.mountain": "mountain",
  "montana.hex.lake": "lake",
  "montana.hex.cost": "costs {cost}",
  "montana.hex.double": "double settlement",
  "montana.hex.cattle": "cattle",
  "montana.selectHex": "build here? {where}",
  "montana.workerBoard": "Worker board",
  "montana.area.bank": "Bank",
  "montana.area.mine": "Mine",
  "montana.area.quarry": "Quarry",
  "montana.area.grainField": "Grain field",
  "montana.area.farm": "Farm",
  "montana.anyWorkers": "{n} workers of any colour",
  "montana.needs": "1, or any 2",
  "montana.rightPart": "right part: the same workers again for one more good",
  "montana.selectSpace": "send workers to {space}",
  "montana.bankSpace": "the Bank, space {n} ({workers} workers → {silver} silver)",
  "montana.prodSpace": "the {area}, space {n} ({cost} silver → {yield} {good})",
  "montana.wheel": "Recruitment wheel",
  "montana.wheelRecruit": "Click the wheel to recruit: it spins and you take the 2 workers where it stops.",
  "montana.wheelNote": "Recruiting spins the wheel; grain pushes the arrow on, 1 a segment.",
  "montana.grainCost": "{n} grain",
  "montana.city": "City: General Store",
  "montana.cityNote": "Each row's reward goes to the contractor standing in it, who pays the column's pumpkins. A later contractor may only stand to the right of one already in the row, and pushes it out.",
  "montana.goCity": "Go to the City: take 1 pumpkin, then place your contractor",
  "montana.rewardHead": "Reward",
  "montana.reward.cattle": "{n} cattle",
  "montana.reward.silver": "{n} silver",
  "montana.reward.upgrades": "upgrades, small to large: up to {n}",
  "montana.reward.picks": "{n} picks of copper, stone or grain",
  "montana.contractorOf": "{name}'s contractor",
  "montana.home": "At home:",
  "montana.selectCattle": "trade a cattle",
  "montana.deciding": "to decide",
  "montana.won": "winner",
  "montana.tilesLeft": "settlement tiles left",
  "montana.left": "{n} left",
  "montana.cap": "{n}/{cap} workers",
  "montana.prompt.overWin": "The game is over: {winners} won ({reason}).",
  "montana.prompt.overDraw": "The game is over: nobody won ({reason}).",
  "montana.prompt.overTie": "The game is over: {winners} won ({reason}); {tiebreak}.",
  "montana.decided.cattle": "more than one player placed every settlement, and the tie went to the most cattle and unused canteens",
  "montana.decided.money": "more than one player placed every settlement and tied on cattle and canteens, so silver, workers and goods decided",
  "montana.decided.shared": "they tied on cattle and canteens and on silver, workers and goods, so they share the win",
  "montana.prompt.chance": "The wheel or the dealer decides…",
  "montana.prompt.main": "{name}: choose one action: a worker space, the wheel (recruit), the City, or a ringed hex to build on. Clicking your cattle trades one first.",
  "montana.prompt.push": "{name}: the wheel stopped on segment {spin}. Keep it, or pay grain to push the arrow on (the ringed segments).",
  "montana.prompt.wild": "{name}: choose a colour for each wild worker.",
  "montana.prompt.overflow": "{name}: at most 8 workers: choose {n} to give back.",
  "montana.prompt.right": "{name}: also fill the right part of {space} for one more good, or leave it empty.",
  "montana.prompt.place": "{name}: place your contractor in a ringed store cell (you must hold the column's pumpkins), or pass.",
  "montana.prompt.reward": "{name}: take the reward of row {row}.",
  "montana.prompt.buildNext": "{name}: built {built} of {max} this turn. Build on another ringed hex, or stop (1 silver for each build not made).",
  "montana.prompt.end": "{name}: end the turn, or use a canteen for an extra turn; cattle can still be traded.",
  "montana.prompt.other": "{name} decides.",
  "montana.prompt.waiting": "Waiting for {name} to decide.",
  "montana.sendWorkers": "Which workers go to {space}?",
  "montana.buildHere": "Build here: {where}",
  "montana.tradeHead": "Trade 1 cattle for a good, {silver} silver or a worker:",
  "montana.preview": "This would: {words}",
  "passtally.rotate": "⟳ Rotate (R)",
  "passtally.turn": "⇄ Turn (F)",
  "passtally.score": "{name}: {score}",
  "passtally.actionsLeft": "actions left: {n}",
  "passtally.revealing": "revealing…",
  "passtally.empty": "empty",
  "passtally.hidden": "{n} face down",
  "potlatch.caption": "stock {stock} · action {n} of {of}",
  "potlatch.label": "Potlatch Klone board; {name} to move",
  "potlatch.legendPawn": "pawn moves here",
  "potlatch.legendChip": "chip moves here",
  "potlatch.legendBoth": "pawn or chip",
  "potlatch.legendLast": "last turn",
  "name.Red": "Red",
  "name.Blue": "Blue",
  "name.Yellow": "Yellow",
  "name.Green": "Green",
  "name.Black": "Black",
  "name.White": "White",
  "name.Chance": "Chance",
  "name.player": "Player {n}",
  "name.ai": "AI ({level})",
  "title.potlatch": "Potlatch Klone",
  "title.proteus": "Proteus",
  "title.passtally": "Passtally",
  "title.montana": "Montana",
  "bool.true": "yes",
  "bool.false": "no",
  "option.players": "Players",
  "option.actions": "Actions per turn",
  "option.layout": "Starting layout",
  "option.first_player": "First seat",
  "option.blank_entry_ignores_height": "Blank space entered from any height",
  "option.repetition_compares_full_state": "Repetition compares everything",
  "option.filter_dead_ends": "Offer only moves that can finish the turn",
  "option.turn_limit": "Turn limit",
  "option.rules": "Ruleset",
  "option.repetition": "Repetition",
  "option.max_turns": "Turn limit",
  "option.jump_counts_as_step": "Occupied slots count as steps",
  "option.ring_corners_continuous": "Markers go round the corners",
  "option.finish_turn_on_immediate_end": "Finish the turn when the tiles run out",
  "option.turn_time_limit_s": "Seconds per turn",
  "option.recruit_grain": "Grain recruitment",
  "option.build_adjacent_any": "Build next to anyone's settlement",
  "option.canteen_after_final": "Canteens after the final turn",
  "option.board_seed": "Landscape",
  "option.start_player": "Start player",
  "option.tiebreak_money": "Money in the tie-break",
  "option.data": "Component data",
  "choice.random": "random",
  "choice.none": "none",
  "choice.seed": "seed rules",
  "choice.kadon": "Kadon rules",
  "choice.forbid": "forbidden",
  "choice.replace": "replaces",
  "choice.additional": "adds",
  "choice.silver": "silver value",
  "choice.coins": "fewest coins",
  "choice.default": "default",
  "cue.label": "{name} (marked {cue})",
  "cue.circle": "circle",
  "cue.triangle": "triangle",
  "cue.square": "square",
  "cue.diamond": "diamond",
  "cue.star": "star",
  // ----- onboarding: the lobby's cards, levels and options in words (issue 16, build 4) -----
  "lobby.intro": "Board games for two to four players: play against the computer, with a friend on this screen, or online with an invitation link.",
  "lobby.cards": "Choose a game",
  "lobby.choose": "Play {title}",
  "lobby.players": "{n} players",
  "lobby.playersRange": "{min}–{max} players",
  "lobby.minutes": "about {min}–{max} min",
  "lobby.newGameOf": "New game of {title}",
  "lobby.playerCount": "Players",
  "lobby.moreOptions": "More options (rule variants)",
  "lobby.moreOptionsNote": "The defaults are the standard rules; change these only if you know the variant.",
  "lobby.private": " Private game: not listed in the lobby; only people with the link can watch or join",
  "lobby.learn": "New to {title}? Your first game starts with a short walk-through on the board.",
  "lobby.levelNote": "AI level",
  "lobby.yes": "yes",
  "lobby.no": "no",
  "about.potlatch.line": "Walk your pawn over a growing field of hex tiles; start your turn with three stacks of your colour and you win.",
  "about.proteus.line": "Nine rule tiles make the board, and the face-up ones decide how pieces move, trade and win — every activation changes the rules.",
  "about.passtally.line": "Lay two-cell path tiles and walk your markers round the edge; score for every line that joins two of your markers.",
  "about.montana.line": "Recruit workers, produce goods, bid in the City and build your settlements across the landscape.",
  "level.easy": "Easy",
  "level.medium": "Medium",
  "level.hard": "Hard",
  "level.expert": "Expert",
  "level.random": "Random",
  "level.easy.says": "A gentle opponent that hardly plans ahead: good for learning the moves.",
  "level.medium.says": "Looks for the best move now or searches briefly: beatable once you know the rules.",
  "level.hard.says": "Searches many moves ahead: a real fight for regular players.",
  "level.expert.says": "The strongest: in test games it beat Hard clearly, as each level beats the one below it.",
  "level.random.says": "Plays any legal move at random and never plans.",
  "option.potlatch.actions": "Actions per turn",
  "option.potlatch.actions.2": "2 (standard, 9 tiles)",
  "option.potlatch.actions.3": "3 (12 tiles)",
  "option.potlatch.layout": "Tiles on the table at the start",
  "option.potlatch.layout.L3": "3 tiles",
  "option.potlatch.layout.L4": "4 tiles",
  "option.potlatch.first_player": "Who starts",
  "option.potlatch.first_player.0": "Red",
  "option.potlatch.first_player.1": "Blue",
  "option.potlatch.blank_entry_ignores_height": "A pawn may step onto a blank space from any height",
  "option.potlatch.repetition_compares_full_state": "A repeated position must match everywhere (empty tiles and pawns too)",
  "option.potlatch.filter_dead_ends": "Offer only actions after which the turn can be finished",
  "option.potlatch.turn_limit": "Turn limit (then the game is scored as a repetition)",
  "option.proteus.rules": "Rule set",
  "option.proteus.rules.seed": "Japanese rules (no win during placement; two passes draw)",
  "option.proteus.rules.kadon": "Kadon rules (wins count from the first turn)",
  "option.proteus.repetition": "Repeating an earlier position",
  "option.proteus.repetition.none": "allowed",
  "option.proteus.repetition.forbid": "not allowed while moving",
  "option.proteus.max_turns": "Turn limit: a draw after this many turns (empty: none)",
  "option.passtally.players": "Players",
  "option.passtally.jump_counts_as_step": "Occupied spaces count as steps when a marker moves",
  "option.passtally.ring_corners_continuous": "Markers move round the corners",
  "option.passtally.finish_turn_on_immediate_end": "When no tile fits mid-turn, finish the turn and score",
  "option.passtally.turn_time_limit_s": "Seconds per turn (noted only; there is no clock)",
  "option.passtally.max_turns": "Turn limit (empty: none)",
  "option.montana.players": "Players",
  "option.montana.recruit_grain": "Paying grain on the wheel",
  "option.montana.recruit_grain.replace": "replaces the workers of the spin (Japanese overview)",
  "option.montana.recruit_grain.additional": "adds 2 more workers (published rules)",
  "option.montana.build_adjacent_any": "Build next to anyone's settlement, not only your own",
  "option.montana.canteen_after_final": "The last player may still use canteens after the final turn",
  "option.montana.board_seed": "Landscape number (random: a new landscape)",
  "option.montana.start_player": "Who starts (random, or a seat number from 0)",
  "option.montana.max_turns": "Turn limit (then the game is scored)",
  "option.montana.tiebreak_money": "The second tie-break counts money as",
  "option.montana.tiebreak_money.silver": "silver value",
  "option.montana.tiebreak_money.coins": "fewest coins",
  "option.montana.data": "Component values",
  // ----- the rules beside the board and the tutorial -----
  "rules.open": "Rules",
  "rules.close": "Close the rules",
  "rules.title": "Rules of {title}",
  "tutorial.start": "Show me how to play",
  "tutorial.skip": "Skip the tutorial",
  "tutorial.done": "Finish",
  "tutorial.title": "How to play: step {n} of {of}",
  "tutorial.wait": "Waiting for the other players…",
  "tutorial.end": "That was your first turn. The rest of the game works the same way; the Rules button beside the board has everything else.",
  "tutorial.potlatch.1": "Each turn you take exactly two actions. The glowing hexes are your choices: the legend under the board tells which colour moves your pawn there and which moves the top chip from under your pawn. Click one.",
  "tutorial.potlatch.2": "Your second action. Where your pawn stops, a chip is added to the stack under it, and the third chip of a stack takes your colour. Start a turn with three stacks of your colour and you win.",
  "tutorial.proteus.1": "First the two of you build the board. Click a glowing tile in the pool (or, once tiles are down, one of your pieces in your hand) to pick it up.",
  "tutorial.proteus.1.selected": "Now click a glowing cell to put it there. A piece on a tile of its own shape turns the tile face up, and a face-up tile's rule starts to count: red for moving, blue for trading, yellow for winning.",
  "tutorial.passtally.1": "Setup first: each player puts a marker on the edge of the board, one side at a time. Your lines will run between your own markers, so spread them out. Click a glowing space.",
  "tutorial.generic.1": "The glowing places on the board are your choices. Click one.",
  "tutorial.next": "Next",
  "tutorial.step": "How to play: step {n}",
  "tutorial.montana.setup": "Before the first turn everyone spins the recruitment wheel twice and takes the workers it shows. A white symbol is a worker of any colour you like: choose its colour in the panel above the table.",
  "tutorial.montana.board": "This is your board: your silver, the settlement tiles you still have to place, your cattle and canteens, your workers (at most 8) and your goods. The first player to place all their settlement tiles on the landscape ends the game.",
  "tutorial.montana.workers": "Your workers go to the worker board. A space of the Mine, Quarry, Grain field or Farm takes 1 worker of its colour or any 2: you pay the silver on its left and take the goods shown there, and its small right part gives 1 more good for the same workers again. The Bank pays silver for workers. A space stays taken until every space of its area is full.",
  "tutorial.montana.build": "Settlements are built on the landscape: on a free hex next to the start tile or to one of your settlements, paying exactly the goods printed on it. One build action places up to 3, and each one you do not build pays 1 silver. Some hexes also give a cattle or a canteen.",
  "tutorial.montana.choose": "Each turn is one action: click the wheel to recruit 2 workers, a worker space to send workers there, the City for a pumpkin and a bid for a reward, or a ringed hex to build. The glowing places are what you can do now.",
  "tutorial.montana.push": "The arrow shows the 2 workers you get. Keep them, or pay grain to push the arrow on to a ringed segment, 1 grain a segment.",
  "tutorial.montana.wild": "A white symbol is a worker of any colour: choose its colour in the panel.",
  "tutorial.montana.overflow": "You may hold at most 8 workers: choose in the panel which to give back.",
  "tutorial.montana.right": "The small right part of the same space gives 1 more good for 1 more worker of its colour (or any 2). Choose the workers in the panel, or leave it empty.",
  "tutorial.montana.place": "Put your contractor in a store cell: the column says how many pumpkins it costs, the row's reward is written on the right. The other players may then take the same row further right and push you out.",
  "tutorial.montana.reward": "The row your contractor stands in pays its reward now: choose it in the panel.",
  "tutorial.montana.buildNext": "Built! Build again on a ringed hex (up to 3 this turn), or stop and take 1 silver for each build not made.",
  "tutorial.montana.end": "How a turn ends: you may still trade a cattle (click the cattle on your board) for a good, 3 silver or a worker, or use a canteen for an extra turn. Then click the button in the panel that ends your turn. A worker area whose spaces are all full is cleared at the end of a turn.",
  // ----- online play: resign, draw, play again, your turn (issue 16, build 5) -----
  "table.resign": "Resign",
  "table.resignConfirm": "Resign this game? It ends for you and cannot be taken back.",
  "table.offerDraw": "Offer a draw",
  "table.noDraw": "This game always has a winner under its rules, so no draw can be offered.",
  "table.drawOffered": "{name} offers a draw.",
  "table.drawWaiting": "You offered a draw; waiting for an answer.",
  "table.accept": "Accept the draw",
  "table.decline": "Decline",
  "table.withdraw": "Withdraw the offer",
  "table.resigned": "{name} resigned.",
  "table.playAgain": "Play again (seats swapped)",
  "table.rematchReady": "A rematch has started, with the seats swapped.",
  "table.joinRematch": "Go to the rematch",
  "table.watchRematch": "Watch the rematch",
  "table.sound": " Sound on your turn",
  "table.private": "private game",
  "table.privateTitle": "not listed in the lobby; only people with the link can watch",
  "title.yourTurn": "Your turn · {title} · boardplay",
  "title.game": "{title} · boardplay",
  "game.copyLabel": "Copy the invitation link for seat {n}",
  // ----- the Japanese UI, complete: why a game ended, the lobby options' tooltips (issue 16) -----
  "result.winsBecause": "{name} wins ({reason})",
  "result.drawBecause": "a draw ({reason})",
  "result.resigns": "{name} resigns",
  "result.resignsWins": "{name} resigns: {winner} wins",
  "result.agreed": "draw by agreement",
  "end.three_stacks": "condition 1: three own stacks",
  "end.stuck": "condition 2: the mover could not complete the turn",
  "end.repetition": "condition 3: repetition",
  "end.turn_limit": "turn limit reached",
  "end.goal": "goal met by one player only",
  "end.two_passes": "both players passed",
  "end.no_action": "no legal action",
  "end.no_placement": "no legal placement left",
  "end.final_round": "final round played out",
  "allowed.range": "a whole number from {min} to {max}",
  "allowed.atLeast": "a whole number, {min} or more",
  "allowed.number": "a whole number",
  "allowed.or": " or ",
  "allowed.empty": "empty: none",
  "tip.potlatch.actions": "Actions each player takes per turn: the stock has 9 tiles for 2 actions, 12 for 3.",
  "tip.potlatch.layout": "How many tiles lie on the table when the game starts: 3 or 4.",
  "tip.potlatch.first_player": "The seat that takes the first turn: Red or Blue.",
  "tip.potlatch.blank_entry_ignores_height": "A pawn may step onto a blank space from any height; only a tile from the stock is needed.",
  "tip.potlatch.repetition_compares_full_state": "End condition 3 (repetition) also compares the empty tiles and where the pawns stand.",
  "tip.potlatch.filter_dead_ends": "Only actions after which the turn can still be completed are offered.",
  "tip.potlatch.turn_limit": "A guard of the engine, not a rule: after this many turns the game ends and is scored like a repetition.",
  "tip.proteus.rules": "Japanese rules: no win while the board is being built, and two passes in a row draw. Kadon rules: a win counts from the first turn, and each colour is turned face up exactly once while the board is built.",
  "tip.proteus.repetition": "Whether a move of the movement phase may bring back a position seen before (Boardspace forbids it).",
  "tip.proteus.max_turns": "The game is drawn at the end of this turn unless someone won in it; empty: no limit.",
  "tip.passtally.players": "Number of players; the first seat is the start player.",
  "tip.passtally.jump_counts_as_step": "On: every space of the edge counts as a step, occupied ones too. Off: occupied spaces are jumped for free, and a marker stops on the first or second empty space.",
  "tip.passtally.ring_corners_continuous": "On: markers move round the corners freely. Off: only along their own side.",
  "tip.passtally.finish_turn_on_immediate_end": "On: when no tile can be laid mid-turn, the player finishes the turn and scores. Off: the game ends right after that tile, without scoring.",
  "tip.passtally.turn_time_limit_s": "Seconds per turn (the rulebook's variant uses 60). It is only recorded: this table has no clock.",
  "tip.passtally.max_turns": "A guard of the engine, not a rule: the game ends after this many turns and is ranked by score (ties go to the earliest seat). Empty: no limit.",
  "tip.montana.players": "Number of players.",
  "tip.montana.recruit_grain": "Grain paid on the wheel either replaces the workers of the spin (the Japanese overview) or adds 2 more (the published rules).",
  "tip.montana.build_adjacent_any": "Settlements may be built next to any player's settlement, not only next to your own or the start tile.",
  "tip.montana.canteen_after_final": "The last player of the final round may still use canteens.",
  "tip.montana.board_seed": "The number of the landscape to lay out (0 to 4095 give different landscapes); random: a new one every game.",
  "tip.montana.start_player": "Who starts: random, or a seat number counted from 0.",
  "tip.montana.max_turns": "A guard of the engine: after this many turns the game ends and is scored as if it had been triggered.",
  "tip.montana.tiebreak_money": "The second tie-break counts money either as its silver value or as the fewest coins.",
  "tip.montana.data": "The component values: default is the data shipped with the game (with reconstructed values).",
};

const LANGUAGES = ["en", "ja"]; // as the language menu of index.html
const STORE_KEY = "boardplay.lang";
let messages = {};
let current = "en";

const fill = (template, params) => template.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));

export function t(key, params = {}) {
  return fill(messages[key] || EN[key] || key, params);
}

// A word the server sends as a name ("Red", "medium") in this language, where the table has it
// under `${kind}.${value}`; otherwise the value itself (a player's own name, a number).
export function term(kind, value) {
  const key = `${kind}.${value}`;
  return key in EN ? t(key) : String(value);
}

// A game's title as its publisher's language or ours has it (a game we have no name for: its own).
export const gameTitle = (name, title) => (`title.${name}` in EN ? t(`title.${name}`) : title);

// A seat's name as the server gives it ("Red", "Black", a numbered "Player 2" where the game has
// no colours, "AI (easy)" for an AI seat nobody renamed) in this language; a player's own name
// as it is.
export function seatName(name) {
  const numbered = /^Player (\d+)$/.exec(String(name));
  if (numbered) return t("name.player", { n: numbered[1] });
  const ai = /^AI \((\w+)\)$/.exec(String(name));
  if (ai) return t("name.ai", { level: term("level", ai[1]) });
  return term("name", name);
}

// A move's words, sent by the server as phrases ({t: English template, p: params}); a template
// missing from the catalogue shows in English. Without phrases, the English `fallback`.
export function say(parts, fallback = "") {
  if (!Array.isArray(parts)) return fallback;
  const one = (value) => {
    if (value === null || typeof value !== "object") return String(value);
    if ("seat" in value) return seatName(value.seat);
    const params = Object.fromEntries(Object.entries(value.p || {}).map(([k, v]) => [k, one(v)]));
    return fill(messages[value.t] || value.t, params);
  };
  return parts.map(one).join("");
}

// Why a game ended (the engine's end code, State.end_code) in this language; "" if unknown.
export const endWords = (code) => (code && `end.${code}` in EN ? t(`end.${code}`) : "");

// A result in words: the engine's own sentence in English; in another language it is put
// together from the structured result (`winners` or `winner_names`, the `end` code, and for a
// result the players made, `ended` and `resigned`), never from the English sentence.
export function resultWords(result, names = []) {
  if (!result) return "";
  const text = result.text ?? result.result ?? "";
  if (current === "en" || !Array.isArray(result.winners)) return text;
  const nameOf = (seat) => seatName(names[seat] ?? `#${seat + 1}`);
  const who = (result.winner_names || result.winners.map((w) => names[w] ?? `#${w + 1}`)).map(seatName).join("・");
  if (result.ended === "agreement") return t("result.agreed");
  if (result.ended === "resignation") {
    const quitter = nameOf((result.resigned || []).slice(-1)[0]);
    return who ? t("result.resignsWins", { name: quitter, winner: who }) : t("result.resigns", { name: quitter });
  }
  const reason = endWords(result.end);
  if (who) return reason ? t("result.winsBecause", { name: who, reason }) : t("result.wins", { name: who });
  return reason ? t("result.drawBecause", { reason }) : t("result.draw");
}

// A move in words: its phrases in this language, and how the game ended if it did.
export function words(m) {
  if (!Array.isArray(m?.say)) return m?.words || "";
  const ends = m.struct?.ends;
  return say(m.say) + (ends ? t("game.ends", { result: resultWords(ends) }) : "");
}

// One phrase of the moves' words on its own (a Proteus rule name), in this language.
export const phrase = (english) => messages[english] || english;

export const language = () => current;

// The stored choice, else the first of the browser's languages we speak, else English.
export function preferredLanguage() {
  let stored = null;
  try { stored = localStorage.getItem(STORE_KEY); } catch { stored = null; }
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language]) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export function rememberLanguage(lang) {
  try { localStorage.setItem(STORE_KEY, lang); } catch { /* private mode: not remembered */ }
}

// Loads the catalogue of `lang` (English needs none) and marks the page's language; a failed
// load leaves the page in English rather than half-translated.
export async function setLanguage(lang) {
  let next = {};
  if (lang !== "en") {
    try {
      const response = await fetch(`/api/i18n/${encodeURIComponent(lang)}`);
      if (response.ok) next = (await response.json()).messages || {};
      else lang = "en";
    } catch { lang = "en"; }
  }
  messages = next;
  current = lang;
  document.documentElement.lang = lang;
  return lang;
}
