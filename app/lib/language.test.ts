import { afterEach, describe, expect, it, vi } from "vitest";
import { captureEarlyLanguageChoice, LANGUAGE_STORAGE_KEY, LANGUAGE_SWITCH_ID, languageOnlyInStorage, takeEarlyLanguageChoice } from "./language";

function browser(cookie: string, stored: string | null, search = "") {
  vi.stubGlobal("document", { cookie });
  vi.stubGlobal("window", {
    location: { search },
    localStorage: { getItem: (key: string) => (key === LANGUAGE_STORAGE_KEY ? stored : null) },
  });
}

describe("languageOnlyInStorage", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is the stored language when neither the query nor the cookie chose one", () => {
    browser("", "ja-JP");
    expect(languageOnlyInStorage()).toBe("ja-JP");
  });

  it("is null when the cookie or the query chose the language", () => {
    browser("i18next=zh-CN", "ja-JP");
    expect(languageOnlyInStorage()).toBeNull();
    browser("", "ja-JP", "?lng=zh-CN");
    expect(languageOnlyInStorage()).toBeNull();
  });

  it.each(["i18next=%E0%A4%A", "i18next=%", "theme=dark; i18next=%zz"])("ignores the undecodable cookie %j instead of throwing", (cookie) => {
    browser(cookie, "ja-JP");
    expect(languageOnlyInStorage()).toBe("ja-JP");
    browser(cookie, null);
    expect(languageOnlyInStorage()).toBeNull();
  });
});

describe("captureEarlyLanguageChoice", () => {
  afterEach(() => vi.unstubAllGlobals());

  /** A server-rendered switch (English marked) in a document whose events run through its capture listeners. */
  function page() {
    class FakeSelect extends EventTarget {
      id = LANGUAGE_SWITCH_ID;
      value = "en-US";
      options = ["en-US", "ja-JP", "zh-CN"].map((value) => ({ value, defaultSelected: value === "en-US" }));
    }
    vi.stubGlobal("HTMLSelectElement", FakeSelect);
    const select = new FakeSelect();
    const listeners: { type: string; listener: (event: Event) => void }[] = [];
    vi.stubGlobal("document", {
      getElementById: (id: string) => (id === LANGUAGE_SWITCH_ID ? select : null),
      addEventListener: (type: string, listener: (event: Event) => void) => listeners.push({ type, listener }),
    });
    const fire = (type: string) => {
      const event = new Event(type);
      Object.defineProperty(event, "target", { value: select });
      for (const l of listeners) if (l.type === type) l.listener(event);
    };
    return { select, fire };
  }

  it("keeps a pick that hydration undoes between its input and its change, for React's change handler and the switch", () => {
    const { select, fire } = page();
    captureEarlyLanguageChoice();
    select.value = "zh-CN";
    fire("input");
    // React hydrates on the input (a discrete event): the select goes back to the page's language and the
    // switch, mounted, takes the choice.
    select.value = "en-US";
    expect(takeEarlyLanguageChoice()).toBe("zh-CN");
    fire("change");
    expect(select.value).toBe("zh-CN");
  });

  it("records a pick made before hydration, and a pick back to the page's language as none", () => {
    const first = page();
    captureEarlyLanguageChoice();
    first.select.value = "ja-JP";
    first.fire("input");
    first.fire("change");
    expect(first.select.value).toBe("ja-JP");
    expect(takeEarlyLanguageChoice()).toBe("ja-JP");
    const second = page();
    captureEarlyLanguageChoice();
    second.select.value = "ja-JP";
    second.fire("input");
    second.fire("change");
    second.select.value = "en-US";
    second.fire("input");
    second.fire("change");
    expect(takeEarlyLanguageChoice()).toBeNull();
  });
});
