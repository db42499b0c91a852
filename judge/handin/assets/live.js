// While a version is checked, its page follows the check's events: the
// progress line changes as the check goes, and the page reloads once, to
// show the report, when the check has ended.
const line = document.getElementById('progress');
if (line) {
  const events = new EventSource(line.dataset.events);
  events.onmessage = (e) => {
    const p = JSON.parse(e.data);
    line.textContent = p.text;
    line.dataset.status = p.status;
    if (p.done) {
      events.close();
      location.reload();
    }
  };
}
