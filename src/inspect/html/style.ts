/**
 * The report's style sheet, inlined: system fonts only, light and dark schemes, no images.
 *
 * @module
 */

/** The CSS of the report page. @category constants */
export const STYLE = `
:root{color-scheme:light dark;--bg:#f7f7f5;--fg:#1d1d1f;--muted:#6b6b70;--card:#fff;--line:#e3e3e0;--accent:#2f6fde;
--kept:#1f8a4c;--truncated:#b26a00;--dropped:#c0392b;--free:#e9e9e6;--reserved:#cfcfcb;
--c0:#4e79a7;--c1:#59a14f;--c2:#f28e2b;--c3:#b07aa1;--c4:#76b7b2;--c5:#edc948;--c6:#e15759;--c7:#9c755f;
--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
@media (prefers-color-scheme:dark){:root{--bg:#141416;--fg:#e8e8ea;--muted:#9a9aa2;--card:#1d1d21;--line:#2e2e34;--accent:#7aa7ff;
--kept:#4cc17f;--truncated:#f0a83a;--dropped:#ff6b5e;--free:#2a2a30;--reserved:#3a3a42}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
main{max-width:1180px;margin:0 auto;padding:24px 20px 48px}
h1{font-size:20px;margin:0 0 2px}h2{font-size:15px;margin:28px 0 10px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.sub{color:var(--muted);margin:0 0 18px}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px}
#totals{display:grid;grid-template-columns:repeat(auto-fit,minmax(120px,1fr));gap:10px;margin:0}
#totals div{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 14px}
#totals dt{color:var(--muted);font-size:12px}#totals dd{margin:2px 0 0;font-size:22px;font-weight:650;font-variant-numeric:tabular-nums}
.budget{display:flex;height:30px;border-radius:8px;overflow:hidden;border:1px solid var(--line);margin:14px 0 8px;background:var(--free)}
.seg{height:100%;min-width:1px}.seg.other{background:repeating-linear-gradient(45deg,#888 0 3px,#aaa 3px 6px)}
.seg.free{background:var(--free)}.seg.reserved{background:repeating-linear-gradient(-45deg,var(--reserved) 0 6px,var(--free) 6px 12px)}
.c0{background:var(--c0)}.c1{background:var(--c1)}.c2{background:var(--c2)}.c3{background:var(--c3)}.c4{background:var(--c4)}.c5{background:var(--c5)}.c6{background:var(--c6)}.c7{background:var(--c7)}
.sections td:nth-child(n+2),.sections th:nth-child(n+2){text-align:right}
.legend{list-style:none;display:flex;flex-wrap:wrap;gap:6px 16px;padding:0;margin:0;color:var(--muted)}
.legend b{color:var(--fg);font-weight:600;font-variant-numeric:tabular-nums}
.swatch{display:inline-block;width:11px;height:11px;border-radius:3px;margin-right:6px;vertical-align:-1px;border:1px solid var(--line)}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:6px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
td[data-key=tokens],td[data-key=relevance],td[data-key=recency],td[data-key=composite],th[data-sort=num]{text-align:right}
th button{all:unset;cursor:pointer;font-weight:600;font-size:12px;color:var(--muted);white-space:nowrap}
th button:focus-visible{outline:2px solid var(--accent)}
th[aria-sort=ascending] button::after{content:" ▲"}th[aria-sort=descending] button::after{content:" ▼"}
td[data-key=id]{font-family:var(--mono);font-size:12.5px;min-width:150px;max-width:280px;overflow-wrap:anywhere}
.table-wrap{overflow-x:auto;background:var(--card);border:1px solid var(--line);border-radius:10px}
tr:target{background:color-mix(in srgb,var(--accent) 14%,transparent)}
.none,.of{color:var(--muted)}.detail{color:var(--muted);font-size:12px;max-width:340px}
code{font-family:var(--mono);font-size:12px}
.status{display:inline-block;padding:1px 8px;border-radius:99px;font-size:12px;font-weight:600;color:#fff}
.status.kept{background:var(--kept)}.status.truncated{background:var(--truncated)}.status.dropped{background:var(--dropped)}.status.summarized{background:#6b5bd2}
.preview{display:inline-block;max-width:40ch;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;vertical-align:bottom}
.filters{display:flex;flex-wrap:wrap;align-items:center;gap:10px 18px;margin:0 0 10px}
.filters fieldset{border:0;padding:0;margin:0;display:flex;gap:12px;align-items:center}.filters legend{float:left;margin-right:8px;color:var(--muted)}
.search input{margin-left:6px;padding:5px 9px;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--fg);min-width:240px}
#visible-count{color:var(--muted)}
.notes li{margin:2px 0}.notes .failure{color:var(--dropped)}.notes .warning{color:var(--truncated)}
pre.context{margin:0;white-space:pre-wrap;word-wrap:break-word;font:13px/1.5 var(--mono);background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px}
.context .head{color:var(--muted);font-weight:700}.context .static{color:var(--muted)}
.context a.item{color:inherit;text-decoration:none;border-radius:3px;box-shadow:inset 0 -1px 0 color-mix(in srgb,var(--accent) 45%,transparent)}
.context a.item:hover,.context a.item:target{background:color-mix(in srgb,var(--accent) 14%,transparent)}
.context a.item.cut{box-shadow:inset 0 -2px 0 var(--truncated)}.context .prefix{color:var(--muted)}
.chat{display:flex;flex-direction:column;gap:10px}
.turn{max-width:80%;background:var(--card);border:1px solid var(--line);border-radius:12px;padding:10px 14px}
.turn .who{font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin-bottom:4px}
.turn .text{white-space:pre-wrap;word-wrap:break-word}
.role-system,.role-developer{align-self:center;max-width:100%;width:100%;background:transparent;border-style:dashed}
.role-user{align-self:flex-end;background:color-mix(in srgb,var(--accent) 10%,var(--card))}.role-assistant,.role-tool{align-self:flex-start}
.tool-call{margin-top:8px;border:1px solid var(--line);border-radius:8px;overflow:hidden}
.tool-call .label,.tool-result .label{font-size:12px;color:var(--muted);padding:4px 10px;background:color-mix(in srgb,var(--fg) 5%,transparent)}
.call-id{font-family:var(--mono);font-size:11px}
pre.args,pre.unknown{margin:0;padding:8px 10px;font:12px/1.45 var(--mono);white-space:pre-wrap;word-wrap:break-word}
.tool-result{border-top:1px solid var(--line)}.tool-result .text{padding:8px 10px;font:12px/1.45 var(--mono)}
.tool-result.error .label{color:var(--dropped)}.tool-result.orphan{border:1px dashed var(--dropped);border-radius:8px}
.image{max-width:320px;max-height:240px;border-radius:6px;display:block;margin:6px 0}.image-ref{color:var(--muted);font-style:italic}
.thinking summary{color:var(--muted);cursor:pointer}
.sources{margin-top:6px;font-size:12px;color:var(--muted)}.sources a{font-family:var(--mono);margin-left:6px;color:var(--accent)}
footer{margin-top:32px;color:var(--muted);font-size:12px}
`
