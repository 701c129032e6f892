// A set's questions (bench/relevance/<set>.questions.json), checked against its pages before any
// server starts: every answer names a page of the set, and the page holds the answer's evidence (a
// phrase of its text). A new package version that moved an answer shows up here, not as a miss.
import { readFile } from 'node:fs/promises';
import { htmlText } from '../lib/html-text.js';
import type { LoadedSet } from './sets.js';

export type QuestionKind = 'direct' | 'paraphrase' | 'identifier';
const KINDS: QuestionKind[] = ['direct', 'paraphrase', 'identifier'];

export interface Answer {
  /** Path relative to the set's folder. */
  page: string;
  /** Words of the page that answer the question, as the page's text has them (case aside). */
  evidence: string;
}

export interface Question {
  question: string;
  kind: QuestionKind;
  answers: Answer[];
}

interface QuestionsFile {
  set: string;
  questions: Question[];
}

const questionsPath = (setName: string) => new URL(`./${setName}.questions.json`, import.meta.url);

function shapeProblems(file: QuestionsFile, setName: string): string[] {
  if (file.set !== setName || !Array.isArray(file.questions)) return [`the file is not the questions of the set ${setName}`];
  return file.questions.flatMap((question, index) => {
    const label = `question ${index + 1} ("${question.question}")`;
    const problems: string[] = [];
    if (typeof question.question !== 'string' || question.question.trim() === '') problems.push(`${label}: no question`);
    if (!KINDS.includes(question.kind)) problems.push(`${label}: kind must be one of ${KINDS.join(', ')}`);
    if (!Array.isArray(question.answers) || question.answers.length === 0) problems.push(`${label}: no answer`);
    else if (question.answers.some((answer) => typeof answer.page !== 'string' || typeof answer.evidence !== 'string' || answer.evidence === '')) {
      problems.push(`${label}: each answer needs a page and its evidence`);
    }
    return problems;
  });
}

/** Reads the set's questions; throws listing every question whose answer is not where it says. */
export async function loadQuestions(loaded: LoadedSet): Promise<Question[]> {
  const file = JSON.parse(await readFile(questionsPath(loaded.set.name), 'utf8')) as QuestionsFile;
  const problems = shapeProblems(file, loaded.set.name);
  if (problems.length === 0) {
    const texts = new Map<string, string>();
    const textOf = (page: string) => {
      const bytes = loaded.pages.find((candidate) => candidate.path === page)?.bytes;
      if (bytes === undefined) return undefined;
      if (!texts.has(page)) texts.set(page, htmlText(bytes.toString('utf8')).toLowerCase());
      return texts.get(page);
    };
    for (const question of file.questions) {
      for (const answer of question.answers) {
        const text = textOf(answer.page);
        if (text === undefined) problems.push(`"${question.question}": ${answer.page} is not a page of the set`);
        else if (!text.includes(answer.evidence.toLowerCase())) problems.push(`"${question.question}": ${answer.page} does not say "${answer.evidence}"`);
      }
    }
  }
  if (problems.length > 0) {
    throw new Error(`The questions of ${loaded.set.name} do not match ${loaded.set.debianPackage} ${loaded.packageVersion}:\n  - ${problems.join('\n  - ')}`);
  }
  return file.questions;
}
