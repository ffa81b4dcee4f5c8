//! The tenant's content in every language (issue 24): what the brand writes for members (reward
//! and catalogue names, descriptions and terms, tier names, offer titles and banners, bonus names,
//! the site's title) takes a translation per language, and a language without one shows the
//! default text.
//!
//! **In the file.** A text the tenant file holds is a [`Text`]: one string (every language reads
//! it), or `{"en": …, "ar": …, …}` with the default text under `en`, next to where it is used, so
//! an editor sees each text with its translations. Text that comes from elsewhere (the loyalty
//! platform's offers, gifts and bonuses, written in the default language) is translated in the
//! file's `translations` block, keyed by the text as the platform writes it:
//! `"translations": {"Birthday bonus": {"ar": "مكافأة عيد الميلاد", "it": "Bonus compleanno"}}`.
//! A text whose default changes simply loses its translations until they are written again: the
//! default shows meanwhile. Checked at start-up ([`check`]): languages are the portal's eight,
//! a per-language text has its `en`, no translation is empty, and one default text is never
//! translated two ways (the error names the field).
//!
//! **Where the language is chosen: in the browser.** The API answers every text in its default
//! language, as before, plus `translations` (language → field → text) for the item, built by
//! [`Phrasebook::fields`]; the front end shows `translations[lang][field]`, else the default.
//! An answer is then the same for every member and language (no `Vary`, nothing for the gateway,
//! the service worker or the profile cache to keep apart), and the copies the front end keeps
//! for offline use (`@portal/kit/offline-data`, Home's summary) hold every language: switching
//! language, online or off, redraws at once from the same data and never shows text in the
//! language before. The cost is a few kilobytes per list.
use std::collections::{BTreeMap, HashMap};

use crate::validate::ConfigError;
use crate::{Tenant, Text};

/// The languages the portal speaks; the first is the default text's.
pub const LANGUAGES: [&str; 8] = ["en", "it", "es", "fr", "ar", "de", "el", "th"];

/// The language of a default text (a plain [`Text`], the `en` of a per-language one, the keys of
/// `translations`).
pub const DEFAULT_LANGUAGE: &str = "en";

/// The `translations` block: a default text → its translations by language.
pub type Translations = BTreeMap<String, BTreeMap<String, String>>;

/// An item's translations as the API answers them: language → field → text. Only the languages
/// and fields that have one; the default text is the item's own field.
pub type ItemTranslations = BTreeMap<String, BTreeMap<String, String>>;

impl Default for Text {
    fn default() -> Self {
        Text::Plain(String::new())
    }
}

impl Text {
    /// The default text: the plain one, or `en` (required at load).
    pub fn default_text(&self) -> &str {
        match self {
            Text::Plain(s) => s,
            Text::ByLanguage(m) => m.get(DEFAULT_LANGUAGE).map(String::as_str).unwrap_or_default(),
        }
    }

    /// The text in `lang`, else the default.
    pub fn get(&self, lang: &str) -> &str {
        match self {
            Text::ByLanguage(m) => m.get(lang).map(String::as_str).unwrap_or_else(|| self.default_text()),
            Text::Plain(s) => s,
        }
    }

    /// The translations (not the default), by language.
    fn translated(&self) -> impl Iterator<Item = (&str, &str)> {
        let map = match self {
            Text::ByLanguage(m) => Some(m),
            Text::Plain(_) => None,
        };
        map.into_iter().flatten().filter(|(l, _)| l.as_str() != DEFAULT_LANGUAGE).map(|(l, t)| (l.as_str(), t.as_str()))
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Self {
        Text::Plain(s.to_owned())
    }
}

/// Every default text the tenant translates, with its translations: the `translations` block and
/// every per-language [`Text`] in the file, so a text kept elsewhere (a voucher's name, copied from
/// the catalogue when it was redeemed; a ledger entry naming the reward) is translated as the
/// file translates it. Built once per config version.
#[derive(Debug, Default, Clone)]
pub struct Phrasebook {
    by_default: HashMap<String, BTreeMap<String, String>>,
}

impl Phrasebook {
    /// The tenant's phrasebook (its file was checked at load, so this cannot fail then).
    pub fn new(t: &Tenant) -> Phrasebook {
        build(t).unwrap_or_default()
    }

    /// The translations of `text` by language, if the tenant has any.
    pub fn of(&self, text: &str) -> Option<&BTreeMap<String, String>> {
        self.by_default.get(text.trim())
    }

    /// An item's translations from its fields' default texts (`[("name", &r.name), …]`):
    /// language → field → text.
    pub fn fields(&self, fields: &[(&str, &str)]) -> ItemTranslations {
        let mut out = ItemTranslations::new();
        for (field, text) in fields {
            for (lang, t) in self.of(text).into_iter().flatten() {
                out.entry(lang.clone()).or_default().insert((*field).to_owned(), t.clone());
            }
        }
        out
    }
}

fn bad(path: impl Into<String>, message: impl Into<String>) -> ConfigError {
    ConfigError { path: path.into(), message: message.into() }
}

/// The per-language checks of the tenant file, each naming the field.
pub(crate) fn check(t: &Tenant) -> Result<(), ConfigError> {
    build(t).map(drop)
}

/// Every [`Text`] in the file that members see, with its path.
fn texts(t: &Tenant) -> Vec<(String, &Text)> {
    let mut out: Vec<(String, &Text)> = Vec::new();
    if let Some(m) = &t.general.site_meta {
        out.extend(m.title.iter().map(|x| ("general.siteMeta.title".to_owned(), x)));
        out.extend(m.description.iter().map(|x| ("general.siteMeta.description".to_owned(), x)));
    }
    for (key, e) in &t.events {
        out.push((format!("events.{key}.title"), &e.title));
        out.extend(e.description.iter().map(|x| (format!("events.{key}.description"), x)));
        for (i, f) in e.custom_fields.iter().enumerate() {
            out.extend(f.label.iter().map(|x| (format!("events.{key}.customFields[{i}].label"), x)));
            for (j, o) in f.options.iter().enumerate() {
                if let crate::SelectOption::Labelled { label: Some(x), .. } = o {
                    out.push((format!("events.{key}.customFields[{i}].options[{j}].label"), x));
                }
            }
        }
    }
    let l = &t.components.loyalty;
    for (i, level) in l.tiers.levels.iter().enumerate() {
        out.push((format!("components.loyalty.tiers.levels[{i}].name"), &level.name));
    }
    for (i, item) in l.catalogue.iter().enumerate() {
        let at = format!("components.loyalty.catalogue[{i}]");
        out.push((format!("{at}.name"), &item.name));
        out.push((format!("{at}.description"), &item.description));
        out.push((format!("{at}.terms"), &item.terms));
    }
    out
}

fn check_language(path: &str, lang: &str) -> Result<(), ConfigError> {
    if LANGUAGES.contains(&lang) {
        return Ok(());
    }
    Err(bad(format!("{path}.{lang}"), format!("{lang:?} is not one of the portal's languages ({})", LANGUAGES.join(", "))))
}

/// Checks every text and gathers the phrasebook, refusing a default text translated two ways.
fn build(t: &Tenant) -> Result<Phrasebook, ConfigError> {
    let mut book = Phrasebook::default();
    // Where each (default text, language) was first translated, to name both places of a clash.
    let mut first: HashMap<(String, String), String> = HashMap::new();
    let mut add = |path: &str, default: &str, lang: &str, text: &str| -> Result<(), ConfigError> {
        let key = default.trim().to_owned();
        let entry = book.by_default.entry(key.clone()).or_default();
        match entry.get(lang) {
            Some(known) if known != text => {
                let there = first.get(&(key, lang.to_owned())).cloned().unwrap_or_default();
                Err(bad(format!("{path}.{lang}"), format!("{default:?} is translated differently at {there}.{lang}")))
            }
            Some(_) => Ok(()),
            None => {
                entry.insert(lang.to_owned(), text.to_owned());
                first.insert((key, lang.to_owned()), path.to_owned());
                Ok(())
            }
        }
    };
    for (path, text) in texts(t) {
        let Text::ByLanguage(map) = text else { continue };
        for (lang, value) in map {
            check_language(&path, lang)?;
            if value.trim().is_empty() {
                return Err(bad(format!("{path}.{lang}"), "must not be empty (leave the language out to show the default)"));
            }
        }
        if !map.contains_key(DEFAULT_LANGUAGE) {
            return Err(bad(path, format!("needs its default text, under {DEFAULT_LANGUAGE:?}")));
        }
        for (lang, value) in text.translated() {
            add(&path, text.default_text(), lang, value)?;
        }
    }
    for (default, map) in &t.translations {
        let path = format!("translations[{default:?}]");
        if default.trim().is_empty() {
            return Err(bad(path, "the default text must not be empty"));
        }
        for (lang, value) in map {
            if lang == DEFAULT_LANGUAGE {
                return Err(bad(format!("{path}.{lang}"), "the key is the default text: give the other languages only"));
            }
            check_language(&path, lang)?;
            if value.trim().is_empty() {
                return Err(bad(format!("{path}.{lang}"), "must not be empty (leave the language out to show the default)"));
            }
            add(&path, default.as_str(), lang.as_str(), value.as_str())?;
        }
    }
    Ok(book)
}

#[cfg(test)]
mod tests;
