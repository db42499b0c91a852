<?php
// Tic-tac-toe bot in PHP, as botsArena's bots are written: wins when it can,
// blocks the opponent's line, else takes the centre, a corner, an edge.
// Reads botsArena's JSON from argv[1] (or stdin), prints one JSON answer.
$text = isset($argv[1]) && trim($argv[1]) !== '' ? $argv[1] : stream_get_contents(STDIN);
$req = json_decode($text, true);
if ($req['action'] === 'init') {
    echo json_encode(['name' => 'lines']), "\n";
    exit(0);
}
$board = $req['board'];
$me = $req['you'];
$other = $me === 'X' ? 'O' : 'X';
$lines = [[[0, 0], [0, 1], [0, 2]], [[1, 0], [1, 1], [1, 2]], [[2, 0], [2, 1], [2, 2]],
          [[0, 0], [1, 0], [2, 0]], [[0, 1], [1, 1], [2, 1]], [[0, 2], [1, 2], [2, 2]],
          [[0, 0], [1, 1], [2, 2]], [[0, 2], [1, 1], [2, 0]]];
$key = function ($c) { return $c[0] . '-' . $c[1]; };

// The free cell that completes a line of two of $mark, or null.
function completes($board, $lines, $key, $mark) {
    foreach ($lines as $line) {
        $free = null;
        $count = 0;
        foreach ($line as $c) {
            if ($board[$key($c)] === $mark) {
                $count++;
            } elseif ($board[$key($c)] === '') {
                $free = $key($c);
            }
        }
        if ($count === 2 && $free !== null) {
            return $free;
        }
    }
    return null;
}

$play = completes($board, $lines, $key, $me) ?? completes($board, $lines, $key, $other);
if ($play === null) {
    foreach (['1-1', '0-0', '0-2', '2-0', '2-2', '0-1', '1-0', '1-2', '2-1'] as $cell) {
        if ($board[$cell] === '') {
            $play = $cell;
            break;
        }
    }
}
echo json_encode(['play' => $play]), "\n";
