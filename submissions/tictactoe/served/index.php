<?php
// A tic-tac-toe bot written as botsArena's are: a web page that reads the
// message POSTed to it as JSON and prints its answer. The judge serves this
// folder with PHP's built-in server inside the bot's container. It takes the
// corners first, then the centre, then the edges.
$in = json_decode(file_get_contents('php://input'), true);
header('Content-Type: application/json');
if ($in['action'] === 'init') {
    echo json_encode(['name' => 'served']);
    exit;
}
foreach (['0-0', '0-2', '2-0', '2-2', '1-1', '0-1', '1-0', '1-2', '2-1'] as $cell) {
    if ($in['board'][$cell] === '') {
        echo json_encode(['play' => $cell]);
        exit;
    }
}
