import type { Plugin } from 'vite';
import { inlineScriptJson } from '../printers/codeText.ts';

/**
 * The inline script at the end of `<body>` that shows the picture of the screen kept from the
 * last visit (src/runtime/screenPreview.ts, under `key`) when it is for this address, this build
 * and a session that has not expired: over `#root`, which keeps its size (the app lays out and
 * measures its screen underneath), in an inert box hidden from assistive technology (no clicks,
 * focus or screen-reader text reach it; a click on it lands on the box and does nothing). The app removes it when its own screen is
 * drawn. Not with `?memory` (nothing is remembered there). Plain ES2017; any failure shows nothing.
 *
 * @example
 * screenPreviewScript('ninefold-helpdesk-start-preview')
 */
export function screenPreviewScript(key: string): string {
  return [
    'try{(function(){',
    'if(/[?&]memory(?:[&=]|$)/.test(location.search))return;',
    `var p=JSON.parse(localStorage.getItem(${inlineScriptJson(key)})||"null");`,
    'var e=document.querySelector(\'script[type="module"][src]\');',
    'if(!p||p.v!==1||!e||p.build!==e.getAttribute("src")||!(p.expiresAt>Date.now()))return;',
    // Drawn for a screen of the same kind (a phone's layout is not a desktop's).
    'var wide=matchMedia("(min-width: 48em)").matches;',
    'var w=location.pathname+location.search,s=null;',
    'for(var k=0;k<p.screens.length;k++)if(p.screens[k].path===w&&p.screens[k].wide===wide){s=p.screens[k];break}',
    'var r=document.getElementById("root");if(!s||!r)return;',
    'var o=document.createElement("div");o.id="ninefold-preview";o.setAttribute("aria-hidden","true");',
    // Contained: the app's screen drawn underneath (and its changes) never lays the picture out again.
    'o.style.cssText="position:fixed;inset:0;z-index:10000;overflow:hidden;contain:strict;background:var(--mantine-color-body)";',
    // Parsed in a template (nothing in it runs or loads), then cleaned again as the copy was
    // (screenPreview.ts): what localStorage holds is data, never code, even if written by another.
    'var t=document.createElement("template");t.innerHTML=s.html;',
    'var a=t.content.querySelectorAll("*");for(var n=0;n<a.length;n++){var l=a[n];',
    'if(/^(script|iframe|frame|frameset|object|embed|base|meta|link|noscript|template)$/i.test(l.tagName)){l.remove();continue}',
    'for(var j=l.attributes.length-1;j>=0;j--){var b=l.attributes[j];',
    'if(/^on/i.test(b.name)||/^\\s*(javascript|data|vbscript):/i.test(b.value))l.removeAttribute(b.name)}}',
    'var i=document.createElement("div");i.inert=true;i.setAttribute("inert","");i.appendChild(t.content);o.appendChild(i);',
    'if(s.scheme)document.documentElement.setAttribute("data-mantine-color-scheme",s.scheme);',
    // The screen's content (`main`) is drawn a frame after the rest: the page's first style and
    // layout (its rule sets, fonts, every element) was one task of 53-71 ms on a loaded machine;
    // in two, neither reaches 50 ms (docs/performance.md). Shown from the next frame's own
    // callback, so its style and layout are that frame's: shown from a task between frames, they
    // were forced into the entry script's task when the page's load event came first.
    'var m=i.querySelector("main");if(m)m.style.contentVisibility="hidden";',
    'r.parentNode.insertBefore(o,r.nextSibling);performance.mark("ninefold:preview-shown");',
    'if(m)requestAnimationFrame(function(){requestAnimationFrame(function(){m.style.contentVisibility=""})})',
    '})()}catch(x){}',
  ].join('');
}

/**
 * Vite plugin for embedded builds: puts `screenPreviewScript` for the app's start memory (by the
 * spec's slug) at the end of the page's body. Only in `vite build`: the dev server's pages have no
 * build to match (src/runtime/screenPreview.ts keeps no picture there).
 *
 * @example
 * plugins: [react(), ninefoldScreenPreviewPlugin(specFile)]
 */
export function ninefoldScreenPreviewPlugin(specFile: string): Plugin {
  return {
    name: 'ninefold-screen-preview',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler() {
        const { loadSpecForBuild } = await import('./snapshotPlugin.ts');
        const { appSlug } = await import('../runtime/appSlug.ts');
        const { previewKey, startMemoryKey } = await import('../runtime/rememberedStart.ts');
        const key = previewKey(startMemoryKey(appSlug(await loadSpecForBuild(specFile))));
        return [{ tag: 'script', children: screenPreviewScript(key), injectTo: 'body' }];
      },
    },
  };
}
