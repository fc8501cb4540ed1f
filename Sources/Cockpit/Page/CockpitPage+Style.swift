extension CockpitPage {
    /// The page's CSS. Black on white and bold system fonts (read in sunlight, at arm's length); the
    /// state colours are the report's and `watch`'s meaning: green following, amber holding, red
    /// landing or emergency, grey-blue preflight. The buttons sit fixed at the bottom, 64 px and more
    /// tall (a gloved thumb), LAND the widest and red; the pairing and START sheets open at the top,
    /// above the phone's keyboard, and never cover the buttons: LAND is always one tap away. Nothing is
    /// wider than the screen from 320 px up (below 360 px the vitals take two columns and the type
    /// shrinks), so a phone never zooms out and pushes the fixed buttons below the screen. Values the
    /// phone has had no news of for 3 s (`body.old`) turn grey and show their age (`.ago`). REC is red on
/// white, so it stands out on every banner colour, red included.
    static let style = #"""
        *{box-sizing:border-box}
        html,body{margin:0;background:#fff;color:#000;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
          -webkit-text-size-adjust:100%;font-weight:600;overflow-wrap:anywhere}
        body{padding-bottom:196px}
        header{position:sticky;top:0;z-index:5;padding:10px 14px 8px;color:#fff;border-bottom:4px solid #000}
        #state{font-size:40px;font-weight:900;line-height:1.05;letter-spacing:.5px;text-transform:uppercase}
        #detail{font-size:21px;font-weight:700;line-height:1.2;margin-top:4px}
        #link{font-size:16px;font-weight:700;margin-top:4px;opacity:.95}
        .st-preflight{background:#1f4e8c}
        .st-following{background:#0b6b1f}
        .st-climbing,.st-taking-off{background:#0b5a6b}
        .st-holding{background:#f5b400;color:#000}
        .st-landing,.st-emergency{background:#c00000}
        .st-landed{background:#3a3a3a}
        .st-released{background:#6a1b9a}
        .st-unknown{background:#555}
        header.stale{background:repeating-linear-gradient(135deg,#555 0 18px,#333 18px 36px)!important;color:#fff!important}
        header.stale #link{font-size:22px;font-weight:900;color:#ff0}
        .link-row{display:flex;justify-content:space-between;align-items:center;gap:8px}
        .link-row #link{flex:1;min-width:0}
        #rec{flex:none;margin-top:4px;font-size:22px;font-weight:900;line-height:1;padding:4px 8px;border:3px solid #d00000;border-radius:8px;
          background:#fff;color:#d00000;white-space:nowrap;font-variant-numeric:tabular-nums}
        #rec::before{content:"● "}
        #rec[hidden],#camera-note[hidden],#video-card[hidden]{display:none}
        #camera-note{font-size:15px;font-weight:800;margin-top:2px;opacity:.95}
        #video-download{display:block;margin:6px 0 2px;padding:12px 10px;border:3px solid #000;border-radius:10px;background:#fff;
          color:#000;font-size:22px;font-weight:900;text-align:center;text-decoration:none}
        #video-download.busy{opacity:.6}
        #why{font-size:16px;font-weight:800}
        #why:empty{display:none}
        #security{display:flex;align-items:center;gap:8px;margin:6px -6px 0;padding:6px 8px;background:#000;color:#ff0;
          border:3px solid #ff0;border-radius:8px;font-size:18px;font-weight:900;line-height:1.2}
        #security[hidden]{display:none}
        #security-text{flex:1;min-width:0}
        #security-text::before{content:"⚠ "}
        #security-close{font:inherit;font-size:22px;min-width:44px;min-height:44px;border:2px solid #ff0;border-radius:8px;
          background:#000;color:#ff0}
        main{padding:6px 8px 0}
        .card{border:3px solid #000;border-radius:10px;padding:6px 10px;margin:6px 0;background:#fff}
        .label{font-size:15px;font-weight:800;letter-spacing:1px;color:#333}
        .row{display:flex;justify-content:space-between;align-items:baseline;gap:8px}
        .small{font-size:16px;font-weight:700}
        .big{font-size:44px;font-weight:900;line-height:1;white-space:nowrap}
        .mid{font-size:28px;font-weight:900;line-height:1.1}
        .warn{color:#b00000}
        #bar{position:relative;height:26px;border:2px solid #000;border-radius:5px;margin:6px 0 4px;background:#e8f3e8;overflow:hidden}
        #bar-danger{position:absolute;left:0;top:0;bottom:0;background:repeating-linear-gradient(135deg,#d00 0 8px,#f66 8px 16px)}
        #bar-standoff{position:absolute;top:0;bottom:0;width:4px;margin-left:-2px;background:#0b6b1f}
        #bar-now{position:absolute;top:-2px;bottom:-2px;width:10px;margin-left:-5px;background:#000;border:2px solid #fff}
        .plan-card{padding:2px}
        #plan{width:100%;height:186px;display:block;background:#f4f4f4;border-radius:7px}
        #plan-legend{text-align:center;font-size:15px}
        .k-person{color:#1565ff}.k-drone{color:#000}.k-home{color:#555}.k-fence{color:#d08000}
        .vitals{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:0 6px}
        .vital{padding:4px 6px;margin:4px 0;text-align:center;min-width:0}
        .vital .label{font-size:13px;letter-spacing:.5px}
        .vital .mid{font-size:26px;white-space:nowrap}
        .vital small{font-size:15px;font-weight:800;margin-left:1px}
        .vital .sub{font-size:13px;font-weight:800;color:#333;white-space:nowrap}
        .vital .warn .sub,.vital.warn .sub{color:#b00000}
        .grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 6px}
        .tile{margin:4px 0;padding:5px 8px;min-width:0}
        .fix{font-size:15px;font-weight:800;line-height:1.3;white-space:nowrap;overflow:hidden}
        .fix b{font-size:24px}
        #warnings{margin:2px 0 0;padding-left:22px;font-size:17px;font-weight:700}
        #warnings li{margin:2px 0}
        #last-command{font-size:19px;font-weight:800}
        footer{position:fixed;left:0;right:0;bottom:0;z-index:12;background:#fff;border-top:4px solid #000;
          padding:8px 8px calc(8px + env(safe-area-inset-bottom))}
        .row3{display:grid;grid-template-columns:1fr 1fr 1fr;gap:8px;margin-bottom:8px}
        .cmd{font:inherit;font-size:24px;font-weight:900;border:3px solid #000;border-radius:12px;min-height:64px;color:#000;
          background:#fff;touch-action:manipulation;white-space:nowrap;overflow-wrap:normal}
        .cmd:active{transform:scale(.97)}
        .cmd:disabled{color:#888;border-color:#aaa;background:#eee}
        .hold{background:#f5b400}
        .resume{background:#8fd19e}
        .start{background:#7fb3ff}
        .land{display:block;width:100%;min-height:84px;font-size:36px;letter-spacing:3px;background:#c00000;color:#fff;border-color:#600}
        .cmd.busy{opacity:.6}
        #toast{min-height:0;font-size:18px;font-weight:800;text-align:center}
        #toast:not(:empty){margin-top:6px;padding:6px;border-radius:8px;background:#000;color:#fff}
        #toast.bad:not(:empty){background:#c00000}
        .overlay{position:fixed;inset:0;z-index:10;background:rgba(0,0,0,.7);display:flex;align-items:flex-start}
        .overlay[hidden]{display:none}
        .sheet{width:100%;background:#fff;border-bottom:4px solid #000;padding:16px 14px}
        .sheet-title{font-size:30px;font-weight:900}
        .sheet p{font-size:19px;margin:8px 0 12px}
        .sheet p b{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-weight:900}
        #pair-code{width:100%;font:inherit;font-size:26px;font-weight:900;letter-spacing:2px;text-align:center;
          border:3px solid #000;border-radius:10px;padding:8px}
        .row2{display:grid;grid-template-columns:1fr 1fr;gap:10px;margin-top:12px}
        .row2 button{font:inherit;font-size:24px;font-weight:900;min-height:64px;border:3px solid #000;border-radius:12px;
          white-space:nowrap;padding:0 4px}
        .plain{background:#fff}
        .go{background:#0b6b1f;color:#fff}
        .go.start{background:#1f4e8c}
        .mode-now{font-size:24px;font-weight:900}
        .mode-row{display:flex;gap:8px;align-items:center;margin:8px 0 4px}
        .mode-row select,.mode-row input,.mode-set{font:inherit;font-size:20px;font-weight:800;min-height:52px;
          border:3px solid #000;border-radius:10px;background:#fff;padding:0 8px}
        .mode-row select{flex:1;min-width:0}
        .mode-row input{width:4.2em}
        .mode-row input:disabled{color:#888;border-color:#aaa;background:#eee}
        .mode-row .deg{font-size:22px;font-weight:900;margin-left:-4px}
        .mode-set.busy{opacity:.6}
        #pair-error{min-height:1.2em;margin-top:8px;font-size:20px;font-weight:900;color:#c00000}
        .ago{display:none;font-size:13px;font-weight:800;color:#555;white-space:nowrap}
        body.old .ago{display:block}
        body.old .row .ago{display:inline}
        .plan-card .ago{text-align:center}
        body.old .vital .sub{display:none}
        body.old #distance,body.old .vital .mid,body.old .fix,body.old .fix .warn{color:#999}
        body.old #bar,body.old #plan{opacity:.35;filter:grayscale(1)}
        @media (max-width:359px){
          .vitals{grid-template-columns:repeat(2,minmax(0,1fr))}
          #state{font-size:32px}
          #detail{font-size:18px}
          .big{font-size:38px}
          .cmd{font-size:19px;padding:0 2px;letter-spacing:0}
          .land{font-size:32px}
          .fix{font-size:14px}
          .fix b{font-size:20px}
          .mode-row .mode-set{padding:0 6px}
          .sheet-title{font-size:26px}
          .sheet p{font-size:17px}
          .row2 button{font-size:20px}
          #link{font-size:15px}
          header.stale #link{font-size:19px}
          #why{font-size:14px}
          #rec{font-size:19px;padding:4px 6px}
          #security{font-size:16px}
        }
        @media (max-height:640px){
          .sheet{padding:10px 12px}
          .sheet-title{font-size:24px}
          .sheet p{font-size:16px;margin:4px 0 8px}
          #pair-code{font-size:22px;padding:5px}
          #pair-error{font-size:17px;margin-top:4px}
          .row2{margin-top:6px}
          .row2 button{min-height:56px}
        }
        """#
}
