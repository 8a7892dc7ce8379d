// @ts-check
// What a race's ranking says in words, in one place, so the results' title, the status line
// and the page's own "this race is over" note agree (issue 22.6: "You finished #1 of 2" beside
// "nobody finished"). The ranking is final from `decided` (docs/protocol.md 2.2): the winner sees
// it at once, and a racer still playing is told it has lost and may play on or leave.
// "Won" is the server's `winner` (docs/protocol.md 7's rule); the first of a race nobody won
// "placed first".

/** The winner's result row, or null when nobody won the race. */
export function winnerRow(game, results) {
  if (game?.winner) return results.find((row) => row.player === game.winner) ?? null;
  if (game?.winner === null && game?.decided_at) return null;
  // A race ranked before the server named its winner: the one who cleared the board first.
  return results.find((row) => row.rank === 1 && row.status === "won") ?? null;
}

/** The results' heading for this page: its racer's verdict, or who won for a spectator. */
export function resultsTitle(game, results, you) {
  const winner = winnerRow(game, results);
  const mine = you ? results.find((row) => row.player === you) : null;
  const of = results.length;
  if (mine) {
    if (winner?.player === mine.player) return "You won the race!";
    if (winner) return `${winner.name} won the race · you placed #${mine.rank} of ${of}`;
    if (mine.rank === 1) return `Nobody won the race · you placed first of ${of}`;
    return `Nobody won the race · you placed #${mine.rank} of ${of}`;
  }
  if (winner) return `${winner.name} won the race`;
  return results.length ? `Nobody won the race · ${results[0].name} placed first` : "Race over";
}

/** The status line once the race is decided but still running; null before. */
export function decidedLine(game, me) {
  const rows = game?.decided;
  if (!rows || !me) return null;
  const mine = rows.find((row) => row.player === me.id);
  if (!mine) return null;
  const winner = winnerRow(game, rows);
  const still = rows.find((row) => row.status === "playing" && row.player !== me.id);
  const playsOn = still ? ` ${still.name} may still play on.` : "";
  if (winner?.player === me.id) {
    if (me.status === "playing") {
      return "You have won the race: every other racer is out. Clear the board for your time, or leave.";
    }
    return `You won the race!${playsOn}`;
  }
  const place = `you placed #${mine.rank} of ${rows.length}`;
  if (me.status === "playing") {
    const who = winner ? `${winner.name} won the race` : "the ranking is decided";
    return `You have lost: ${who}, and ${place}. You may play on or leave.`;
  }
  return `${winner ? `${winner.name} won the race` : "The ranking is decided"}: ${place}.${playsOn}`;
}
