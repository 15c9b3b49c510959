/**
 * The built-in enricher: descriptions, fixes and page summaries written without a model, from the
 * rule's guide and what the engine measured on each element (colours and ratio, target size, the
 * element's attributes). Texts are plain text; HTML and CSS appear literally.
 *
 * This module is what the rest of the service imports; the parts live in ./offline/:
 *   enricher.ts     createOfflineEnricher, describeFinding (generic texts from the rule's guide)
 *   describers/     the element-specific texts per rule (contrast, image, label, target, link, lang)
 *   wording.ts      every fixed sentence and template the texts are made of, as data, including the
 *                   lead-in phrases before suggested code ("Replace the element with:", …)
 *   vocabulary.ts   word lists and lookup tables (field labels, file types, language names)
 *   summary.ts      topPriorities, positiveFindings, summarise
 *   text.ts, facts.ts, markup.ts   helpers: caps and templates, the engine's facts, the element's markup
 */
export { createOfflineEnricher, describeFinding } from './offline/enricher.ts';
export { destinationName, suggestLang } from './offline/describers/index.ts';
export { withAttribute, wordsFrom } from './offline/markup.ts';
export { MAX_DESCRIPTION, MAX_FIX } from './offline/text.ts';
export { engineSummary, positiveFindings, summarise, topPriorities } from './offline/summary.ts';
