import { describe, expect, it } from 'vitest';
import { foreignScriptRuns, foreignSentences, otherLanguage } from '../../../../../src/audit/engines/language/parts.ts';

describe('short passages in another language', () => {
  it('finds runs of another script, not single letters, lone words or short names', () => {
    expect(foreignScriptRuns('Tolstoy begins: «Все счастливые семьи похожи друг на друга». A fine opening.', ['Latin'])).toEqual([
      expect.objectContaining({ script: 'Cyrillic', text: 'Все счастливые семьи похожи друг на друга' }),
    ]);
    expect(foreignScriptRuns('The sign read مرحبا بكم في المتحف and we went in.', ['Latin'])[0]).toMatchObject({ script: 'Arabic' });
    expect(foreignScriptRuns('He greeted us with שלום עליכם at the door.', ['Latin'])[0]).toMatchObject({ script: 'Hebrew' });
    expect(foreignScriptRuns('The menu says 寿司と刺身の盛り合わせ today.', ['Latin'])[0]).toMatchObject({ script: 'Han' });
    for (const t of ['Let α and β be angles, with Δ the change.', 'The word λόγος means word.', 'Visit 東京 soon.', 'Café, naïve, façade and Zürich.', 'The Ω-limit set of x.']) {
      expect(foreignScriptRuns(t, ['Latin']), t).toEqual([]);
    }
    // Text in the page's own script family is never foreign.
    expect(foreignScriptRuns('東京は日本の首都です。', ['Han', 'Kana'])).toEqual([]);
  });

  it('finds a sentence or quotation of another language by its function words, not English prose with foreign words', () => {
    expect(foreignSentences('As the saying goes, “L’essentiel est invisible pour les yeux, on ne voit bien qu’avec le cœur” and so on.', 'en')[0]).toMatchObject({ subtag: 'fr' });
    expect(foreignSentences('Goethe wrote that. Es ist nicht die Zeit, die uns fehlt, sondern wir sind es. Then he left.', 'en')[0]).toMatchObject({ subtag: 'de' });
    for (const t of [
      'The processes die when the parent exits, and the die command is not needed.',
      'We used the Pas de Calais dataset with the de facto standard layout.',
      'c’est la vie, as they say in the documentation of the project.',
      'Use the --no-banner option with ipython to start without the banner.',
    ]) {
      expect(foreignSentences(t, 'en'), t).toEqual([]);
    }
    expect(foreignSentences('Je ne sais pas ce que je veux maintenant', 'da')).toEqual([]);
  });

  it('tells the language of a short phrase with its own lang by its function words only', () => {
    expect(otherLanguage('"Hij ging met de kippen op stok"', 'fr')).toMatchObject({ subtag: 'nl' });
    expect(otherLanguage('Bonne année à tous', 'nl')).toBeNull();
    expect(otherLanguage('Il ne faut pas vendre la peau de l’ours', 'fr')).toBeNull();
    expect(otherLanguage('Hij ging met de kippen op stok', 'da')).toBeNull();
  });
});
