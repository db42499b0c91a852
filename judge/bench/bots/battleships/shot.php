<?php
// Bench program bot: one process per request, answering at once.
echo "{\"move\": \"00\"}\n";
