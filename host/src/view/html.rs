//! The viewer page: one self-contained HTML file (inline style and script, no network),
//! with the steps embedded as JSON.

use serde_json::{Value, json};

use super::pack::pack_lines;
use super::steps::Viewer;

/// The page for a game. Everything it needs is in it: it loads nothing.
pub fn page(viewer: &Viewer) -> String {
    let data = script_json(&embedded(viewer).to_string());
    let title = escape(&viewer.title);
    let last = viewer.steps.len().saturating_sub(1);
    let mut html = String::with_capacity(data.len() + 8192);
    html.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    html.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    html.push_str(&format!("<title>{title} - carc viewer</title>\n"));
    html.push_str("<style>\n");
    html.push_str(STYLE);
    html.push_str("</style>\n</head>\n<body>\n");
    html.push_str(&format!("<h1>{title}</h1>\n"));
    html.push_str(&format!(
        "<nav>\n<button id=\"prev\" type=\"button\" title=\"previous move (Left)\">&larr; previous</button>\n\
         <input id=\"slider\" type=\"range\" min=\"0\" max=\"{last}\" value=\"0\" aria-label=\"step\">\n\
         <button id=\"next\" type=\"button\" title=\"next move (Right)\">next &rarr;</button>\n\
         <span id=\"step\" aria-live=\"polite\"></span>\n</nav>\n"
    ));
    html.push_str(
        "<main>\n<section id=\"board\" aria-label=\"board\"></section>\n<aside>\n\
         <p id=\"turn\"></p>\n\
         <table id=\"scores\"><thead><tr><th>player</th><th>score</th></tr></thead><tbody></tbody></table>\n\
         <h2>Turn log</h2>\n<ol id=\"log\"></ol>\n</aside>\n</main>\n\
         <p class=\"keys\">Keys: Left/Right step, Home/End first/last.</p>\n",
    );
    html.push_str("<script id=\"steps\" type=\"application/json\">");
    html.push_str(&data);
    html.push_str("</script>\n<script>\n");
    html.push_str(SCRIPT);
    html.push_str("</script>\n</body>\n</html>\n");
    html
}

/// The data the page embeds: the viewer's steps without their boards, and the boards
/// packed (see [`super::pack`]) as `texts`, `lines` and `boards`.
pub fn embedded(viewer: &Viewer) -> Value {
    let packed = pack_lines(viewer.steps.iter().map(|s| s.board.lines(&viewer.drawings)));
    let mut data = serde_json::to_value(viewer).unwrap_or_default();
    if let Some(object) = data.as_object_mut() {
        object.insert("texts".into(), json!(packed.texts));
        object.insert("lines".into(), json!(packed.lines));
        object.insert("boards".into(), json!(packed.boards));
    }
    data
}

/// JSON made safe inside a `<script>` element: `<`, `>` and `&` as `\u003c`, `\u003e`,
/// `\u0026` (in JSON they only occur inside strings, where these escapes mean the same),
/// so no `</script>` or `<!--` can end or change the element.
pub fn script_json(json: &str) -> String {
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// Text made safe in HTML (element content and quoted attribute values).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const STYLE: &str = r#"body { font-family: sans-serif; margin: 1em; color: #222; background: #fafaf7; }
h1 { font-size: 1.3em; margin: 0 0 .5em; }
h2 { font-size: 1em; margin: 1em 0 .3em; }
nav { display: flex; gap: .6em; align-items: center; flex-wrap: wrap; margin-bottom: .8em; }
nav input { flex: 1; min-width: 12em; }
#step { font-weight: bold; }
main { display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }
#board { flex: 2; min-width: 300px; overflow: auto; border: 1px solid #ccc; background: #fff; }
#board svg { display: block; max-width: 100%; height: auto; }
aside { flex: 1; min-width: 260px; }
#turn { font-weight: bold; }
table { border-collapse: collapse; }
th, td { padding: .2em .8em; border-bottom: 1px solid #ddd; text-align: left; }
td.score { text-align: right; }
tr.current { background: #ffe9a8; }
#log { padding-left: 1.5em; font-family: monospace; white-space: pre-wrap; }
.rule { background: #c33; color: #fff; border-radius: .3em; padding: 0 .3em; }
.keys { color: #777; font-size: .85em; }
"#;

const SCRIPT: &str = r##""use strict";
const game = JSON.parse(document.getElementById("steps").textContent);
const slider = document.getElementById("slider");
const last = game.steps.length - 1;
let at = 0;

// The board after step k: its runs of the distinct lines, each the number of its text, joined.
function board(k) {
  const text = (i) => game.texts[i];
  return game.boards[k].map(([first, count]) => game.lines.slice(first, first + count).map(text).join("\n")).join("\n");
}

// A log line, with every rule number in it (PD-6, RP-11, PD-OPT-4) highlighted.
function logItem(line) {
  const li = document.createElement("li");
  let text = line.text;
  if (line.rule && !text.includes(line.rule)) text += " (" + line.rule + ")";
  for (const part of text.split(/\b([A-Z]+(?:-OPT)?-\d+)\b/)) {
    if (/^[A-Z]+(?:-OPT)?-\d+$/.test(part)) {
      const mark = document.createElement("mark");
      mark.className = "rule";
      mark.textContent = part;
      if (part === line.rule && line.rule_doc) mark.title = line.rule_doc;
      li.appendChild(mark);
    } else {
      li.appendChild(document.createTextNode(part));
    }
  }
  return li;
}

function show(k) {
  at = Math.max(0, Math.min(last, k));
  const step = game.steps[at];
  slider.value = at;
  document.getElementById("step").textContent = "Step " + at + " of " + last + ": " + step.label;
  document.getElementById("turn").textContent = step.turn;
  document.getElementById("board").innerHTML = board(at);
  const rows = document.querySelector("#scores tbody");
  rows.replaceChildren();
  game.players.forEach((name, i) => {
    const tr = document.createElement("tr");
    tr.dataset.player = name;
    tr.dataset.score = step.scores[i];
    if (step.current === i) tr.className = "current";
    const who = document.createElement("td");
    who.textContent = name;
    const score = document.createElement("td");
    score.className = "score";
    score.textContent = step.scores[i];
    tr.append(who, score);
    rows.appendChild(tr);
  });
  document.getElementById("log").replaceChildren(...step.log.map(logItem));
  document.getElementById("prev").disabled = at === 0;
  document.getElementById("next").disabled = at === last;
}

document.getElementById("prev").addEventListener("click", () => show(at - 1));
document.getElementById("next").addEventListener("click", () => show(at + 1));
slider.addEventListener("input", () => show(Number(slider.value)));
document.addEventListener("keydown", (e) => {
  if (e.target === slider) return; // the slider steps itself
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  show(to);
});
// `game.html#40` opens at step 40.
show(Number((location.hash.match(/^#(\d+)$/) || [0, 0])[1]));
"##;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_close_the_element() {
        let s = script_json(r#"{"a":"</script><!-- & x"}"#);
        assert!(!s.contains('<') && !s.contains('>'));
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["a"], "</script><!-- & x");
    }

    #[test]
    fn escaping() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
