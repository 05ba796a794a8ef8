// The page of a tournament (src/web/tournament.rs): the server draws it; this reads it again
// every few seconds and puts in the new standings and pairings, until the event is over.
const EVERY_MS = 4000;

async function refresh() {
  const main = document.getElementById("event");
  if (!main || main.dataset.over === "true") return;
  try {
    const response = await fetch(location.pathname, { cache: "no-store" });
    if (response.ok) {
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const next = page.getElementById("event");
      if (next && next.innerHTML !== main.innerHTML) {
        main.replaceWith(document.adoptNode(next));
      }
    }
  } catch (e) {
    // Offline for a moment: the next turn tries again.
  }
  setTimeout(refresh, EVERY_MS);
}

setTimeout(refresh, EVERY_MS);
