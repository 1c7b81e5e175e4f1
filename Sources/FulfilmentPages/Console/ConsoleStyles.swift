import FulfilmentDomain

/// The console's one stylesheet. Verdicts are colour plus a word, in type large enough to read
/// at arm's length. Every page fits a 360 px phone without scrolling sideways: tables of many
/// columns (`table.cards`) become one card per row below 600 px, each value under its column's
/// name (`data-label`), and long names wrap anywhere rather than widen the page.
enum ConsoleStyles {
    static let css = #"""
        :root { --ok: #0b6e2f; --ok-bg: #dff5e6; --warn: #8a5300; --warn-bg: #fff1d6; --bad: #a3161a; --bad-bg: #fde2e2;
                --ink: #1b1f23; --muted: #57606a; --line: #d0d7de; --accent: #0a4b9c; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 18px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f6f8fa; }
        main { max-width: 1100px; margin: 0 auto; padding: 1rem; }
        header.top { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; padding: .6rem 1rem; background: #0d2740; color: #fff; }
        header.top a { color: #fff; text-decoration: none; font-weight: 600; margin-right: 1rem; }
        header.top .brand { font-weight: 800; letter-spacing: .03em; }
        header.top nav { flex: 1; display: flex; flex-wrap: wrap; row-gap: .3rem; }
        header.top form.signout { margin: 0; }
        h1 { font-size: 1.6rem; margin: .4rem 0 1rem; }
        button, .button { font: inherit; font-weight: 700; padding: .55rem 1.1rem; border-radius: 6px; border: 2px solid var(--accent);
                 background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
        button.secondary, .button.secondary { background: #fff; color: var(--accent); }
        button.danger { background: var(--bad); border-color: var(--bad); }
        input, select, textarea { font: inherit; padding: .45rem .6rem; border: 2px solid var(--line); border-radius: 6px; }
        input, select, textarea, button, .button, progress, img { max-width: 100%; }
        textarea { box-sizing: border-box; width: 100%; }
        label { font-weight: 600; }
        table { border-collapse: collapse; width: 100%; background: #fff; }
        th, td { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { font-size: .85rem; text-transform: uppercase; color: var(--muted); }
        td { overflow-wrap: break-word; }
        dd, h1, h2, .notice, table.lines td:nth-child(2) { overflow-wrap: anywhere; }
        table.lines td:first-child, table.lines td:last-child { white-space: nowrap; }
        .fields { display: flex; flex-wrap: wrap; gap: .4rem .5rem; align-items: flex-end; margin: .4rem 0 0; }
        .field { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); }
        .field input { font-size: 1.125rem; width: 4.5rem; }
        .field input.count { width: 6rem; }
        .notice { background: #fff; border: 2px solid var(--line); border-radius: 8px; padding: 1rem 1.2rem; margin: 1rem 0; }
        .notice-refused { border-color: var(--bad); background: var(--bad-bg); }
        .notice-ok { border-color: var(--ok); background: var(--ok-bg); }
        .signin { max-width: 420px; margin: 3rem auto; background: #fff; padding: 1.5rem; border-radius: 10px; border: 1px solid var(--line); }
        .signin label, .signin input { display: block; width: 100%; }
        .signin input { margin: .2rem 0 1rem; }
        .providers { list-style: none; padding: 0; margin: 0 0 1rem; display: grid; gap: .5rem; }
        .providers .button { display: block; text-align: center; text-decoration: none; }
        .desk .scan { display: flex; gap: .6rem; align-items: flex-end; flex-wrap: wrap; background: #fff; padding: 1rem; border-radius: 10px; border: 1px solid var(--line); }
        .desk .scan label { width: 100%; font-size: 1.1rem; }
        .desk .scan-input { flex: 1; min-width: min(16rem, 100%); font-size: 1.6rem; font-family: ui-monospace, monospace; }
        .verdict { margin: 1rem 0; padding: 1.2rem 1.5rem; border-radius: 12px; border: 4px solid var(--line); background: #fff; }
        .verdict-word { font-size: 3rem; font-weight: 900; letter-spacing: .04em; margin: 0; text-transform: uppercase; }
        .verdict-detail { font-size: 1.5rem; margin: .3rem 0 .8rem; }
        .verdict.ok { border-color: var(--ok); background: var(--ok-bg); } .verdict.ok .verdict-word { color: var(--ok); }
        .verdict.warn { border-color: var(--warn); background: var(--warn-bg); } .verdict.warn .verdict-word { color: var(--warn); }
        .verdict.bad { border-color: var(--bad); background: var(--bad-bg); } .verdict.bad .verdict-word { color: var(--bad); }
        .verdict .facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .2rem 1.2rem; font-size: 1.3rem; }
        .verdict .facts dt { color: var(--muted); } .verdict .facts dd { margin: 0; font-weight: 700; }
        .verdict table { margin: .8rem 0; font-size: 1.2rem; }
        .actions { display: flex; gap: .8rem; flex-wrap: wrap; align-items: center; margin-top: 1rem; }
        .actions form { margin: 0; }
        .big { font-size: 1.4rem; padding: .8rem 1.6rem; }
        .id-check { font-size: 1.3rem; font-weight: 800; color: var(--warn); }
        .hint { color: var(--muted); font-size: .95rem; }
        .status { display: inline-block; padding: .1rem .5rem; border-radius: 4px; font-weight: 700; font-size: .85rem; background: #eaeef2; }
        .status-pending { background: var(--warn-bg); color: var(--warn); } .status-packaged { background: #dbeafe; color: #1e3a8a; }
        .status-delivering { background: #ede9fe; color: #5b21b6; } .status-completed { background: var(--ok-bg); color: var(--ok); }
        .status-cancelled { background: var(--bad-bg); color: var(--bad); }
        .board-actions form { display: inline-flex; gap: .3rem; margin: 0 .3rem .3rem 0; }
        .board-actions input[name=reason] { width: 9rem; font-size: .9rem; }
        .board-actions button { font-size: .9rem; padding: .3rem .6rem; }
        .receipt { text-align: center; background: #fff; padding: 1rem; border-radius: 10px; border: 1px solid var(--line); }
        .receipt img { width: min(88vw, 420px); height: auto; image-rendering: pixelated; background: #fff; }
        .receipt .number { font-size: 2rem; font-weight: 900; }
        .tracker { display: flex; gap: .3rem; margin: 1rem 0; }
        .tracker span { flex: 1; padding: .4rem; text-align: center; background: #eaeef2; border-radius: 4px; font-size: .9rem; }
        .tracker span.done { background: var(--ok); color: #fff; font-weight: 700; }
        body.pick main { max-width: 360px; padding: .5rem; }
        body.pick .stop { background: #fff; border: 2px solid var(--line); border-radius: 10px; padding: .8rem; }
        body.pick .where { font-size: 2rem; font-weight: 900; }
        body.pick .what { font-size: 1.2rem; font-weight: 700; }
        body.pick .totes li { margin: .3rem 0; }
        body.pick input.scan-input { width: 100%; font-size: 1.2rem; }
        a { color: var(--accent); }
        :focus-visible { outline: 3px solid #b45309; outline-offset: 2px; }
        header.top :focus-visible { outline-color: #fbbf24; }
        .skip { position: absolute; left: -9999px; top: 0; background: #fff; color: var(--accent); padding: .5rem 1rem; z-index: 10; }
        .skip:focus { left: .5rem; }
        .count { font-weight: 800; }
        form.search { display: flex; flex-wrap: wrap; gap: .4rem .6rem; align-items: center; margin: 0 0 1rem; }
        form.search input[type=search] { flex: 1 1 14rem; min-width: 0; }
        ul.products, ul.cart-lines, ul.stores, ul.locate { list-style: none; padding: 0; margin: 0; }
        ul.products { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: .8rem; }
        li.product, li.cart-line, li.store, li.located { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: .8rem 1rem; margin: 0 0 .7rem; }
        li.product h3, li.cart-line h3 { margin: 0 0 .2rem; font-size: 1.1rem; overflow-wrap: anywhere; }
        li.product p { margin: .2rem 0; }
        li.product form { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: .4rem 0 0; }
        input.qty { width: 5rem; }
        .stock.in { color: var(--ok); font-weight: 700; } .stock.out { color: var(--bad); font-weight: 700; }
        .where { color: var(--ink); }
        li.store form { display: flex; flex-wrap: wrap; gap: .4rem .8rem; align-items: center; margin: 0; }
        li.store.current { border-color: var(--ok); }
        li.cart-line .line-total { font-weight: 800; margin: .3rem 0 0; }
        li.cart-line form { margin: .3rem 0 0; }
        .inline-form { display: inline; }
        dl.totals { display: grid; grid-template-columns: max-content auto; gap: .2rem 1rem; font-size: 1.15rem; }
        dl.totals dd { margin: 0; }
        fieldset.slots { border: 1px solid var(--line); border-radius: 8px; background: #fff; margin: 0 0 .7rem; display: flex; flex-wrap: wrap; gap: .3rem .9rem; }
        fieldset.slots legend { font-weight: 800; padding: 0 .3rem; }
        .slot { white-space: nowrap; } .slot input { margin-right: .2rem; }
        .slot.full label { color: var(--muted); text-decoration: line-through; }
        .token-text code { overflow-wrap: anywhere; font-size: .9rem; }
        ol.tracker { list-style: none; padding: 0; }
        ol.tracker li { flex: 1; padding: .4rem; text-align: center; background: #eaeef2; border-radius: 4px; font-size: .9rem; }
        ol.tracker li.done { background: var(--ok); color: #fff; font-weight: 700; }
        @media (max-width: 600px) {
          main { padding: .6rem; }
          table.cards, table.cards tbody, table.cards tr, table.cards td, table.cards th[scope=rowgroup] { display: block; width: 100%; }
          table.cards { background: none; }
          table.cards thead { display: none; }
          table.cards tr { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: .4rem .7rem; margin: 0 0 .7rem; }
          table.cards td { border: 0; padding: .25rem 0; }
          table.cards td[data-label]::before { content: attr(data-label); display: block; font-size: .75rem; font-weight: 700;
            text-transform: uppercase; letter-spacing: .03em; color: var(--muted); }
          table.cards tr.slot-group { background: none; border: 0; padding: .3rem 0 0; margin: 0; }
          table.cards tr.slot-group th { padding: 0 0 .3rem; }
          table.cards.compact td[data-label] { padding-left: 6.2rem; }
          table.cards.compact td[data-label]::before { float: left; width: 5.8rem; margin-left: -6.2rem; padding-top: .2rem; }
          th, td { padding-left: .4rem; padding-right: .4rem; }
          .verdict { padding: .8rem; }
          .verdict-word { font-size: 2.2rem; }
          .verdict-detail { font-size: 1.25rem; }
          .verdict .facts { gap: .1rem .8rem; font-size: 1.1rem; }
          .verdict table { font-size: 1.05rem; }
          .big { font-size: 1.2rem; padding: .6rem 1rem; }
          .receipt .number { font-size: 1.6rem; }
        }
        @media (max-width: 480px) {
          header.top { padding: .4rem .6rem; gap: .3rem .8rem; font-size: .95rem; }
          header.top nav { order: 3; flex-basis: 100%; }
          header.top a { margin-right: .8rem; }
          header.top form.signout button { padding: .25rem .6rem; font-size: .9rem; }
          body.pick .where { font-size: 1.6rem; }
        }
        @media print { header.top, .no-print { display: none; } }
        """#
}
