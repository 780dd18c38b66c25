"""Every sentence of the book that states a measured fact is checked by an ``assert`` in a cell of its
section, so an edit that makes the sentence false fails the build (``make book``, and the book tests).

``CLAIMS`` lists, for each executed chapter, a phrase from each such sentence and a piece of the
assert that checks it. The tests read the chapters' sources only (no build): each phrase is in the
prose, each check is an ``assert`` of a code cell in the phrase's section, and every assert of a chapter
is listed here, so the list stays the chapter's inventory of claims.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from myst_nb.core.read import read_myst_markdown_notebook

from conftest import ROOT, notebook_pages

CLAIMS: dict[str, list[tuple[str, str]]] = {
    "book/01_attention": [
        ("goes to key 2, the key the query was made from", "weights[0].argmax() == 2"),
        ("lies near the value stored under it", "abs(output.item() - 2) < 0.5"),
        ("additive attention was", "t_additive > 2 * t_dot"),
        ("The\ntwo agree", "torch.allclose(out, F.scaled_dot_product_attention(q, k, v)"),
        ("of the rows are saturated", "saturated[at[1024]] > 0.5"),
        ("of the unscaled rows are saturated at $d_k = 64$", "saturated[at[64]] > 0.1"),
        ("a share that grows with the width", "zip(saturated[1:], saturated[2:])"),
        ("the\nscaling removes it at every width", "max(stats['scaled']['saturated']) == 0"),
        ("times less gradient than with the scaling", "jac[-1] < 0.01 * stats['scaled']['jac'][-1]"),
        ("times less gradient than a scaled one", "jac[at[128]] < stats['scaled']['jac'][at[128]]"),
        ("still passes back about as much as a scaled one", "0.7 < jac[at[64]] / stats['scaled']['jac'][at[64]] < 1.5"),
        ("Positions 0 to 4 are untouched", "change[:5].max() == 0 and change[5:].min() > 0"),
        ("Splitting costs no parameters", "MultiHeadAttention(64, h).parameters()"),
        ("Head 0 matches a query's position with the\n*previous* position", "weights[0, 0, t].argmax() == t - 1"),
        ("head 1 matches a query's word with the *same word*", "words[int(weights[0, 1, t].argmax())] == words[t]"),
        ("recovers\nthe alignment, including the swapped order", "[french[int(j)] for j in alignment.argmax(-1)]"),
    ],
    "book/02_blocks": [
        ("times the gradient norm of the last\nlayer's in the plain stack", "plain[0] / plain[-1] < 1e-06"),
        ("times it in the residual one", "0.2 < residual[0] / residual[-1] < 5"),
        ("the same\nplain stack passes its first layer", "plain_preserving[0] / plain_preserving[-1] > 0.1"),
        ("every token\nhas mean 0 and standard deviation 1", "float(mean)"),
        ("the gain and bias then set a scale and offset", "float(std)"),
        ("order now matters", "no_positions < 1e-05 and with_positions > 0.1"),
        (
            "With either kind of position vector the model learns the task",
            "max(final['sinusoidal'], final['learned']) < 0.3 * bag_loss",
        ),
        ("which costs {glue:text}`bag_loss:.3f` on average", "abs(final['none'] - bag_loss) < 0.1"),
        ("its vectors stay far from parallel", "largest_cosine < 0.7"),
        (
            "At a learning rate that pre-LN and parallel blocks\ntake from the first step",
            "max(max(final['pre_ln']), max(final['parallel'])) < 0.6",
        ),
        (
            "post-LN without warmup ends far above every other run, in all three seeds",
            "min(final['post_ln']) > 2 * others_worst",
        ),
        ("Ramping the learning rate up first lets it train", "max(final['post_ln + warmup']) < 1.0"),
        ("the gap grows with depth", "1 < ratio[6] < ratio[24]"),
        ("leaves\nthe decoder's outputs at earlier positions exactly as they were", "decoder_moved.max() == 0"),
        ("while the encoder's change\neverywhere", "encoder_moved.min() > 0.01"),
        ("the\ncross-attention has found the alignment by itself", "weights['cross'].flip(-1).diagonal().mean() > 0.5"),
        ("The two losses are the same", "abs(one_pass - one_by_one) < 1e-05"),
        ("the single pass was", "t_one_by_one > 2 * t_one_pass"),
    ],
    "book/03_gpt": [
        (
            "With the scaling, the stream leaves 48 blocks as it leaves 6",
            "abs(spreads[48][0] / spreads[6][0] - 1) < 0.25",
        ),
        ("its spread grows with depth", "spreads[48][1] > 1.5 * spreads[6][1]"),
        (
            "spreads its probability almost\nevenly over the vocabulary",
            "1 - entropy.min() / math.log(tokenizer.vocab_size) < 0.05",
        ),
        ("The target here is to end no more than 0.15 nats above that 1.89", "history.val_loss[-1] - 1.89 < 0.15"),
        (
            "having seen {glue:text}`share_seen:.0%` of the training\ntext once",
            "run.steps * 16 * config.block_size < len(train_ids)",
        ),
        ("its loss tracks the\ntraining loss", "abs(history.val_loss[-1] - sum(history.train_loss[-50:]) / 50) < 0.15"),
        ("Each model beats the one before it", "all((a > b for a, b in zip(nats, nats[1:])))"),
        ("The play's layout (a name, a colon, lines of verse", "with_layout >= 1"),
        (
            "of the samples' words occur in the training text",
            "sum((w in known_words for w in words)) / len(words) > 0.6",
        ),
        ("a line of verse from the validation text", "line in val_text"),
        ('a "previous-token head"', "previous[0].max() > 0.4"),
        ("Heads of later blocks look further back", "later_blocks > 2 * first_block"),
        ("Greedy decoding repeats itself", "repeated['greedy'] > max(0.15, 3 * max("),
        (
            "Sampling invents words, and more the higher the temperature",
            "invented['τ = 0.5'] < invented['τ = 1'] < invented['τ = 1.5']",
        ),
        (
            "Cutting off the unlikely tail\ndoes not stop the inventions",
            "0.05 < min(invented['top-k = 5'], invented['top-p = 0.9'])",
        ),
        (
            "both ways give the same tokens (the cell checks it)",
            "torch.equal(measured.results[True], measured.results[False])",
        ),
        ("the gap grows with the length", "speedup[-1] > 2 and speedup[-1] > speedup[0]"),
        (
            "recomputing took {glue:text}`kv_growth_recompute:.1f` times as long",
            "growth[False] > 4 and growth[False] > 1.5 * growth[True]",
        ),
        ("of its {glue:text}`gpt3_weight_gb:.0f` GB of weights", "cache_bytes < 0.05 * weight_bytes"),
        ("it outweighs the weights", "weight_bytes < 50 * cache_bytes"),
        (
            "Counted, GPT-2 small has {glue:text}`gpt2_counted:.0f` M parameters, not the 117 M",
            "round(rows[1][2] / 1000000.0) == 124",
        ),
        ("the larger sizes are off by a few percent the same way", "1 < counted / published < 1.1"),
    ],
    "book/03b_tokenization": [
        (
            "distinct words, and {glue:text}`unseen_share:.1%` of the held-out",
            "len(train_words) > 100 * chars.vocab_size",
        ),
        ("never occur in training: a word-level model would see", "unseen_share > 0.01"),
        ("Characters will not do for a tokenizer meant for any text", "n_unicode > 100000"),
        (
            "An English letter is one byte, an accented letter two",
            "[len(ch.encode('utf-8')) for ch in examples] == [1, 2, 3, 3, 4]",
        ),
        ("the em dash (which the plays use)", "'—' in train_text"),
        ("a space is `Ġ` and a newline `Ċ`", "byte_char[ord(' ')] == 'Ġ'"),
        ("the 256 byte values spell every\npossible text", "len(set(byte_char.values())) == 256"),
        ("is written `Ġthe` in GPT-2's files and in ours", "''.join((byte_char[b] for b in b' the')) == 'Ġthe'"),
        ("the most\nfrequent pair would straddle two words", "top_raw_pair == ('e', ' ')"),
        ("The first merge joins a space and a *t*", "merges[0] == (' ', 't')"),
        ('a few merges later " the" is a token of its own', "rank_of[' the'] < 20"),
        ("wait until merge {glue:text}`rank_the`", "rank_of['the'] > 10 * rank_of[' the']"),
        ("With the bytes alone each letter is a token", "counts[0] == len(word.encode('utf-8'))"),
        ("The first merges build common fragments", "all((later <= earlier for earlier, later in pairwise(counts)))"),
        (
            'at 2,048 tokens " understanding" is " under", "stand", "ing"',
            "segmentations[' understanding'][sizes.index(2048)]",
        ),
        ("at the\nlargest vocabulary each word is a single token", "counts[-1] == 1"),
        (
            "The rarer word of the two stays in pieces for\nlonger",
            "whole_at[' wherefore'] < whole_at[' understanding']",
        ),
        ("from one character per token", "abs(val_cpt[0] - 1) < 0.01"),
        ("Compression grows with every doubling of the vocabulary", "all((b > a for a, b in pairwise(val_cpt)))"),
        ("but by less each time", "all((b < a for a, b in pairwise(gains)))"),
        (
            "On the training text the same tokenizers look better\nand better",
            "all((b > a > 0 for a, b in pairwise(gaps[1:])))",
        ),
        ("the later merges are mostly whole words of the training plays", "whole_word_share > 0.5"),
        ("GPT-2's 50,257 tokens", "gpt2.vocab_size == 50257"),
        ("more than our 8,192-token vocabulary", "val_cpt[sizes.index(8192)] < gpt2_cpt < val_cpt[-1]"),
        (
            "parameters instead of\n{glue:text}`params_char:,`",
            "big.num_parameters() > 3 * models[chars.vocab_size].num_parameters()",
        ),
        ("of them are the embedding table", "embedding_share > 0.5"),
        ("in a large\none the table is a smaller share", "gpt2_embedding_share < 0.5 * embedding_share"),
        ("Seven digits become three tokens of three, two and two digits", "pieces('1234567') == ['123', '45', '67']"),
        ("every year from 1900 to\n{glue:text}`last_single_year` is one token", "first_split > 2000"),
        ("to 2050 only {glue:text}`n_later_single` are", "len(later_single) < (2050 - first_split + 1) / 4"),
        ("The space before a word is part of the word's token", "pieces('Hello world') == ['Hello', ' world']"),
        ("are different tokens with unrelated ids", "gpt2.encode('Hello') != gpt2.encode(' Hello')"),
        ("four spaces of\nindentation cost three tokens", "'ĠĠ' not in gpt2.encoder"),
        ("GPT-2 has a token for two newlines", "pieces('\\n\\n') == ['\\n\\n']"),
        ("a blank line between paragraphs costs two\ntokens", "pieces('one\\n\\ntwo') == ['one', '\\n', '\\n', 'two']"),
        ("are four different tokens", "len({ids[0] for ids in the_ids}) == 4"),
        (
            '" Juliet" is one token, but " JULIET"',
            "len(gpt2.encode(' Juliet')) == 1 and len(gpt2.encode(' JULIET')) > 1",
        ),
        ("as the plays write a\nspeaker's name at the start of a line", "len(gpt2.encode('JULIET:')) > 2"),
        (
            "The English sentence is {glue:text}`n_english` tokens",
            "n_tokens['English'] < n_tokens['German'] < n_tokens['Greek']",
        ),
        ("Greek and Japanese\ncost more tokens than characters", "per_char['Greek'] > 1 and per_char['Japanese'] > 1"),
        ("a piece printed as `�` holds only some of", "'�' in pieces(samples['Greek'])"),
        ("Greek letters take two bytes", "all((len(c.encode('utf-8')) == 2 for c in samples['Greek'] if c.isalpha()))"),
        ("these Japanese characters three", "all((len(c.encode('utf-8')) == 3 for c in samples['Japanese']))"),
        (
            "Invented words are spelt from fragments too",
            "per_word['invented words'] > 1.5 * per_word['held-out Shakespeare']",
        ),
        ("Both give the same ids on all", "all(agree)"),
        ("Per token, the unigram model gets worse", "all((b > a for a, b in pairwise(nats_per_token)))"),
        ("per character it gets better", "all((b < a for a, b in pairwise(bits_per_char)))"),
        ("The cell trains a Unigram vocabulary of 16,384 pieces", "unigram.vocab_size == 16384"),
        ("and keeps them at the start of pieces", "all((SPACE not in piece[1:] for piece, _ in pieces))"),
        (
            "and\nso does Hugging Face's `normalizers.Nmt`",
            "normalizers.Nmt().normalize_str('JULIET:\\nO Romeo') == 'JULIET: O Romeo'",
        ),
        ("The most probable pieces are the line break", "pieces[0][0] == '\\n' and all((regex.fullmatch("),
        (
            "of the pieces join a word and a\npunctuation mark",
            "len(with_punctuation) > 500 and {'▁lord,', '▁me.'} <= set(with_punctuation)",
        ),
        (
            '"Thrice" where a line begins and "▁thrice" inside one are different pieces',
            "'Thrice' in log_p and '▁thrice' in log_p",
        ),
        (
            "Viterbi's cut is the best of the list",
            "all((unigram.cut(word).pieces == cuts[0] for word, cuts in ranked.items()))",
        ),
        ("whole word is a piece, and the most probable cut", "ranked['▁understanding'][0] == ('▁understanding',)"),
        ("the best spells it from several pieces", "len(ranked['▁florbish'][0]) > 2"),
        ("tokenizer give the same ids", "unigram_ids == hf_ids"),
        ("and decoding gives the text back", "unigram.decode(unigram_ids) == val_text"),
        ("which the cell checks against our regular expression", "assert same_pre_tokens"),
        (
            "within 5% of BPE's",
            'abs(compression["Unigram, SentencePiece\'s ▁"] / compression["BPE, GPT-2\'s pre-tokens"] - 1) < 0.05',
        ),
        (
            "On the same pre-tokens as BPE, Unigram compresses less",
            'compression["Unigram, GPT-2\'s pre-tokens"] < compression["BPE, GPT-2\'s pre-tokens"]',
        ),
        (
            "Every draw spells the line",
            "all((''.join(cut.pieces) == line for cuts in samples.values() for cut in cuts))",
        ),
        ("the draws are that cut", "share_best[1.0] > 0.8"),
        ("of the 200 draws differ", "distinct[0.1] > 150"),
        ("tokens on average against the best\ncut's", "mean_tokens[0.1] > 1.5 * len(best.ids)"),
    ],
    "book/04_bert": [
        ("it learned to copy", "1 - min(copy_accuracy.values()) < 0.05"),
        (
            "The accent of *naïvely* is gone, every punctuation mark is a word of its own",
            "words[:3] == ['naively', ',', 'the']",
        ),
        ("is cut\ngreedily into `una ##ffa ##ble`", "pieces == ['una', '##ffa', '##ble']"),
        ("the emoji, absent from the vocabulary, is `[UNK]`", "bert_tokenizer.tokenize('🎭') == ['[UNK]']"),
        ("WordPiece gets {glue:text}`wp_chars_per_token:.2f`", "cpt['WordPiece'] - cpt['byte BPE'] > 0.2"),
        ("`[UNK]` tokens among them", "wp_ids.count(tokenizer.unk_id) < 0.001 * len(wp_ids)"),
        ("of its tokens on whitespace alone", "bpe_spaces / len(bpe_ids) > 0.05"),
        (
            "close to WordPiece",
            "abs(cpt['byte BPE, lower-cased, whitespace tokens not counted'] - cpt['WordPiece']) < 0.2",
        ),
        ("BPE's tokens decode to the text exactly", "bpe.decode(bpe.encode(speech)) == speech"),
        (
            "were chosen,\nin the proportions the rule says",
            "near(chosen.float().mean().item(), 0.15, val_batch.numel())",
        ),
        ("half the time B is the\ntext that follows A", "abs(share_next - 0.5) < 0.02"),
        ("is {glue:text}`shown_gain:.2f` nats more sure of the token in front of it", "shown_gain > 0.1"),
        (
            "its loss is {glue:text}`probe_loss_gap:.2f` nats lower",
            "probe_loss['100% [MASK]'] - probe_loss['80/10/10'] > 0.2",
        ),
        (
            "{glue:text}`probe_801010:.0%` of the time",
            "probe_accuracy['80/10/10'] - probe_accuracy['100% [MASK]'] > 0.02",
        ),
        ("of the way from a uniform guess to the unigram baseline", "way_to_unigram > 0.5"),
        ("Then it leaves that plateau", "mlm_gain > 0.15"),
        ("of the masked tokens right, where always guessing", "accuracy_ratio > 1.5"),
        ("NSP is still at chance", "abs(curve['nsp_accuracy'][-1] - 0.5) < 0.13"),
        ("it gives every pair the same answer", "curve['nsp_spread'][-1] < 0.02"),
        ("speaking parts of the training plays", "len(speaking_parts) > 1000"),
        ("Its guesses are the commonest tokens", "sum(in_common) / len(in_common) > 0.5"),
        (
            "of the mass on *New Angeles* and *Los York*",
            "off_mass == 0.5 and sum((math.exp(v) for v in pll.values())) == 2",
        ),
        ("nearly the same for every gap", "len(guesses) < 15"),
        ("the largest difference between their hidden\nstates", "gap < 0.0001"),
        (
            "every sentence's nearest\nneighbour is its paraphrase",
            "all((topic[int(j)] == topic[i] for i, j in enumerate(nearest)))",
        ),
        (
            "MiniLM puts paraphrases at a cosine similarity",
            "similarity['MiniLM'][same & off_diagonal].min() > similarity['MiniLM'][~same].max()",
        ),
        ("finds\neverything alike", "small_unrelated > 0.7 and small_para - small_unrelated < 0.1"),
        (
            "With the mean, paraphrases are {glue:text}`sep_mean:.2f` more similar",
            "separation['mean of tokens'] > separation['[CLS] state']",
        ),
        ("Counted with its pooler, BERT-base has", "counted['bert-base'] == 109482240"),
        ("the 110M of the\npaper", "abs(counted['bert-base'] / PUBLISHED_PARAMETERS['bert-base'] - 1) < 0.01"),
        ("times the weights of the largest matrix inside a block", "head_ratio > 2"),
        ("ms with the head at every position and", "t_chosen < t_every"),
    ],
    "book/05_t5": [
        ("has the parameter count of Hugging Face's", "n_ours == n_hf == 60506624"),
        ("The decoder\nholds more of them than the encoder", "shares['decoder'] > shares['encoder']"),
        (
            "the decoder reading the answer shifted one step right",
            "(labels[1] == -100).sum() == labels.shape[1] - len('positive') - 1",
        ),
        (
            "checks it against Hugging Face's for every distance up to 1,000 each way",
            "torch.equal(ours, T5Attention._relative_position_bucket(distance, bidirectional, 32, 128))",
        ),
        (
            "Distances 0 to 7 each have a bucket of their own, every key 128 or more positions back shares\nbucket 15",
            "exact_past == list(range(8)) and (encoder_bucket[distance <= -128] == 15).all()",
        ),
        (
            "in the decoder every key after the query falls in bucket 0",
            "(decoder_bucket[distance > 0] == 0).all() and decoder_bucket.max() == 31",
        ),
        (
            "the scale of\nchapter 1's scaled attention",
            "abs(std['T5 (no division, small W_q)'] - std['W_q like W_k, divided by sqrt(64)']) < 0.15",
        ),
        ("$\\sqrt{64} = 8$ times larger", "std['W_q like W_k, no division'] > 6"),
        ("here 7 tokens in 2 spans", "(n_noise, n_spans) == (7, 2) and int(noise.sum()) == 7"),
        (
            "The input is shorter than the text and the target much shorter",
            "len(inputs) == len(words) - n_noise + n_spans + 1 and len(targets) == n_noise + n_spans + 1",
        ),
        ("Every draw hides exactly 7 tokens", "draws.sum(1).unique().tolist() == [7.0]"),
        (
            "the first token is never hidden and the last always is",
            "p_hidden[0] == 0 and p_hidden[-1] == 1 and (p_hidden[1:-1].min() > 0)",
        ),
        (
            "where a uniform choice would give every position 15%",
            "p_hidden[1] < 7 / 48 / 2 < 2 * 7 / 48 < p_hidden[-2]",
        ),
        (
            "so that the input fills its 512 positions exactly",
            "span_corruption_lengths(raw)[0] <= 512 < span_corruption_lengths(raw + 1)[0]",
        ),
        ("positions 8 to 39 are each hidden in only", "interior.max() < 7 / 48 and 0.06 < interior.mean() < 0.12"),
        (
            "document rotation (the document starts at a random token)",
            "any((rotated == inner[k:] + inner[:k] for k in range(len(inner))))",
        ),
        (
            "sentence permutation (the order of the sentences\nis shuffled)",
            "sentences(noised['sentence permutation'][1:-1]) == sentences(doc[1:-1])",
        ),
        (
            "The beginning and end\ntokens are never touched",
            "all((out[0] == BOS and out[-1] == EOS for out in noised.values()))",
        ),
        ("30% rounded up (BART's rate)", "masked_count == budget and 0.6 * budget <= infill_hidden_here <= budget"),
        (
            "But infilling shows fewer\nmasks",
            "(noised['token masking'] == MASK).sum() > (noised['text infilling'] == MASK).sum()",
        ),
        ("(a little under the 30% budget", "0.01 < 0.3 - hidden_share < 0.1 and 12 < mean_masks < 25"),
        (
            "a bias in every linear map and every norm",
            "described['T5']['in biases'] == 0 < described['BART']['in biases']",
        ),
        (
            "learned absolute positions on each side",
            "described['T5']['in positions'] < 0.05 * described['BART']['in positions']",
        ),
        (
            "`course_lib`'s BART-base has the 140M",
            "abs(bart_base.num_parameters() / BART_PUBLISHED['bart-base'] - 1) < 0.01",
        ),
        ("is that of a uniform guess over the 384 ids", "abs(bart_loss - math.log(tok.vocab_size)) < 0.2"),
        ("T5-small's embedding has", "small.config.vocab_size == 32128 and 0.25 < embedding_share < 0.3"),
        (
            "the other three fall anywhere inside it",
            "inside.min() > 0.08 and hidden_at[0] == 0 and (hidden_at[-1] == 1)",
        ),
        (
            "far below the unigram and a little below the format-aware baseline",
            "unigram - format_aware > 0.5 and format_aware - pretraining.val_loss[-1] > 0",
        ),
        ("of the six name the gaps' sentinels in\norder", "in_order >= 5"),
        ("And the input hardly matters", "abs(other_source - own_source) < 0.1"),
        ("of the bytes it writes are spaces, t, h or e", "the_share > 0.7"),
        ("well under three times it", "moved < 3 * config.d_model ** (-0.5)"),
        ("correlate with their initial values at", "bias_r > 0.8"),
        ("on neither is the pretrained model 8 points\nabove the better of the random initialisation", "bought < 0.08"),
        ("neither model gets 13 points above always answering the commonest label", "best < 0.13"),
        (
            "validation losses are within 0.1 of each other",
            "abs(results['pretrained']['val loss'] - results['random init']['val loss']) < 0.1",
        ),
        (
            "a lower temperature and the\ntop-k cut land in between",
            "min(score['greedy'], score['beam 4']) > score['sampled, temperature 0.7, top-k 10'] > "
            "score['sampled, temperature 1']",
        ),
        (
            "and all differ from each other",
            "len(set(decoded['sampled, temperature 1'])) == 6 > len(set(decoded['greedy']))",
        ),
        ("The answers are the same, and the cached decoding", "torch.equal(timings[True][1], timings[False][1])"),
        (
            "times faster\nhere, in CPU seconds on one thread, the fastest of three rounds each, taken in turns",
            "timings[False][0] > timings[True][0]",
        ),
        (
            "T5's decoder reads a quarter or less of what BART's reads",
            "t5_batch[1].shape[1] < 0.25 * bart_batch[1].shape[1]",
        ),
        (
            "far less than the targets' ratio",
            "measured['BART, text infilling'][0] / measured['T5, span corruption'][0] < "
            "bart_batch[1].shape[1] / t5_batch[1].shape[1]",
        ),
        (
            "well below the\n{glue:text}`byte_unigram:.2f` of guessing each byte by its frequency",
            "byte_unigram - bart_pretraining.val_loss[-1] > 0.3",
        ),
        ("Here pretraining pays, on every seed", "min(gains['T5']) > 0.2 and min(gains['BART']) > 0.3"),
        ("The models do not read the line they\nare given yet", "reads < 0.1"),
        (
            "no greedy answer printed above restores its line",
            "all((answer != line for line, answer in zip(held_lines, shown['pretrained'])))",
        ),
        (
            "But T5\npredicts far fewer tokens than GPT per step",
            "measured['GPT, next token'][1] > 4 * measured['T5, span corruption'][1]",
        ),
        (
            "and T5's and BERT's cost several times more",
            "min(per_prediction['BERT'], per_prediction['T5']) > 2 * "
            "max(per_prediction['GPT'], per_prediction['BART'])",
        ),
    ],
    "book/06_finetune": [
        ("Each set below holds as many positive as negative snippets", "len(pos) == len(neg) == n // 2"),
        ("tokens loses little", "cut < 0.02"),
        ("the mean is ahead by", "pooling_low > 0"),
        ("Averaged word embeddings alone give", "by_layer['movies'][0] - 0.5 > 0.15"),
        ("it is a few points at most", "-0.15 < last_low and last_high < 0.15"),
        ("and returns the count", "counts['everything'] == total == trainable_parameters(model)"),
        (
            "so the\nwrapped model *is* the pretrained one at the first step",
            "start_gap == 0 and off_gap == 0 and (merged_gap < 1e-05)",
        ),
        ("the outputs are the base model's exactly", "start_gap == 0 and off_gap == 0 and (merged_gap < 1e-05)"),
        ("The saved file holds only what\ntrained", "lora_bytes < 500000.0"),
        ("fewer than the", "counts['biases (BitFit) + head'] < lora_trained"),
        ("Every variant that trains part or all of the pretrained model lands within", "spread < 0.08"),
        ("the random initialisation stays at chance", "random_off_chance < 0.13"),
        (
            "That is near the\n±{glue:text}`binomial_half_width:.0f` of a binomial interval",
            "0.5 < half_width / binomial_half_width < 1.5",
        ),
        ("and every pretrained variant beats\nit", "pretraining_worth > 0"),
        ("is larger than the whole\nspread of the variants", "pretraining_gain > spread"),
        ("their intervals are wider still", "half_width_other > half_width"),
        ("times the memory of a LoRA step", "memory_ratio > 2"),
        ("of the difference is the gradients and AdamW's two moments", "state_share > 0.7"),
        ("The activations shrink less", "0.4 < activation_ratio < 0.85"),
        (
            "it trains the fewest parameters of the variants that change the\nmodel, yet its step holds",
            "fewest == 'BitFit' and abs(bitfit_memory_ratio - 1) < 0.1",
        ),
        ("Training only the last block keeps just", "last_block_activations < 0.3"),
        ("The probe leaves the\nloss exactly where it was", "forgetting['linear probe']['mlm loss'] == mlm_before"),
        ("the two losses are\nidentical", "forgetting['LoRA r=8']['mlm loss, LoRA off'] == mlm_before"),
        ("What it changes\nevery time is the pretrained model", "raised > 0.05"),
        (
            "stay near chance",
            "max((abs(forgetting[v]['accuracy'] - 0.5) for v in ('linear probe', 'LoRA r=8'))) < 0.13",
        ),
        (
            "cuts modern words into pieces",
            "pieces_per_word['plays'] - pieces_per_word['bert'] > 0.3 and len(movie_pieces) > 1",
        ),
        ("`[START] text [EXTRACT]`", "(start_id, extract_id) == (START, EXTRACT)"),
        ("the second copy is no easier than the first", "second_copy - first_copy > -0.1"),
        (
            "with only the answer's tokens predicted",
            "bpe.decode([l for l in labels_instruction if l != IGNORE_INDEX]) == ' positive'",
        ),
        ("Before tuning, the GPT answers", "share(base_scores, list(TASKS), 'answered') < 0.1"),
        ("in at least {glue:text}`it_answered_low:.0%` of the questions", "answered_low > 0.7"),
        ("On the two one-letter tasks it is", "min(one_letter) > 0.05"),
        ("The tasks that rewrite the whole word", "whole_word_most < 0.2"),
        ("On the held-out `second` it is right at most", "held_out_right < 0.1"),
    ],
    "book/07_llama": [
        ("The two agree on centred tokens", "(ours - torchs).abs().max() < 1e-05 and same_when_centred < 0.0001"),
        ("and differ by up to", "apart_otherwise > 0.1"),
        ("score the same wherever they sit", "shift_error < 0.001 * q.norm() * k.norm()"),
        ("another distance scores differently", "abs(nearer - scores[0]) > 0.01"),
        (
            "Reordered, the two layouts give the same score",
            "abs(meta_score - ours_score) < 0.0001 and abs(meta_score - unconverted) > 0.01",
        ),
        ("which is the default `LlamaConfig` at this size", "ladder['untied head'] == llama_config"),
        (
            "GQA removes {glue:text}`gqa_saved:,` parameters",
            "params['SwiGLU'] - params['GQA'] == 2 * 4 * 128 * (4 - 2) * d_head",
        ),
        ("the formula of section 7.4 exactly", "kv['GPT (chapter 3)'] == 2 * 4 * 4 * d_head * 4"),
        (
            "SwiGLU at two\n  thirds of the width keeps the parameter count within 0.1%",
            "abs(params['SwiGLU'] - params['RoPE']) < 0.001 * params['RoPE']",
        ),
        ("the untied head adds one", "params['untied head'] - params['GQA'] == tokenizer.vocab_size * 128"),
        ("Each of the 14 runs ends at least 0.3 nats below the unigram model", "< unigram_loss - 0.3"),
        ("the largest change of the ladder", "min(gains['RoPE']) > 1.2 * max("),
        ("Over four seeds the Llama ends", "mean_difference - half_width > 0.05"),
        ("RoPE's gain is {glue:text}`rope_share:.0%` of the whole difference", "0.5 < rope_share < 2.5"),
        ("fewer parameters and the same characters: the gain", "params['untied head'] < params['GPT (chapter 3)']"),
        ("each run\n  with RoPE ends below each run of the rung before it", "rope_gap > 0"),
        ("No other change moves a seed's loss by a quarter of a nat", "other_max < 0.25"),
        ("Averaging the key/value heads costs up to", "all((u['pooled'] > u['mha'] for u in uptraining))"),
        ("15 steps win part of it\nback", "all((u['uptrained'] < u['pooled'] for u in uptraining))"),
        ("the further past its training\nlength, the worse", "rise > 0.05"),
        ("the first 64 positions by at least", "interpolation_cost > 0.15"),
        ("Interpolating without training is worse in\nevery span", "interpolation_worse > 0"),
        ("each span's mean at least", "span_step > 0.02"),
        ("The larger base leaves the first 64 positions nearly as they were", "base_near < 0.05"),
        ("and back into `course_lib`'s (`Llama.from_hf`) with the same logits", "hf_gap < 0.0001 and back_gap < 1e-06"),
    ],
    "book/appendix_scaling": [
        ("The two runs print the same losses at every evaluation", "evaluations(one) == evaluations(two)"),
        ("their final weights differ by at most", "ddp_difference < 0.001"),
        ("Whole batches and accumulated halves end", "accumulation_difference < 0.001"),
        ("For GPT-2 small that is", "1.9 < gpt2_train_gb < 2.0 and big_train_gb > 80"),
        ("A token costs GPT-2 small", "batch_activation_gb > 80 and kb_per_token[True] < 0.4 * kb_per_token[False]"),
        ("most of it is the loss's", "kb_per_token[True] - log_probs_kb < 0.1 * kb_per_token[False]"),
        ("The gradients are the same", "recompute_difference < 1e-06"),
        ("The sharded run prints the same losses", "evaluations(fsdp) == evaluations(two) and fsdp_difference < 0.001"),
        ("DDP's bars stay at the", "abs(held_gb['ddp', n] - gpt2_train_gb) < 1e-09"),
        ("FSDP's fall as $1/N$", "1 <= held_gb['fsdp', n] * n / gpt2_train_gb < 1.001"),
        ("ZeRO-1 leaves", "per_rank_gb[1] > per_rank_gb[2] > per_rank_gb[3] == big_train_gb / 8"),
        ("reproduces the figures of ZeRO's own example", "zero_paper_gb == [120.0, 31.4, 16.6, 1.9]"),
        ("The loss moves by", "logits.dtype == torch.bfloat16 and 0 < relative < 0.001"),
        (
            "is lost in float16 and kept by bfloat16",
            "in_float16 == 0 and in_bfloat16 == gradient and (scaled_back == gradient)",
        ),
        ("the two-process run stops after 40 of its 60 steps", "saved['step'] == 40 and saved['world_size'] == 2"),
        ("Two jobs, on two processes and then one, end where the uninterrupted run ended", "resume_difference < 0.001"),
        ("well over half a year", "gpt2_cpu_days > 180"),
        ("hours *if* the run used 40% of its peak", "gpt2_gpu_hours < 24"),
        ("the command rounds them up to 4,800", "4700 < steps_8gpu <= 4800"),
        ("Every size gains from twice the tokens", "(by_size[:, :-1] - by_size[:, 1:]).min() > 0.02"),
        ("the largest model beats the smallest", "(by_size[0] - by_size[-1]).min() > 0.05"),
        ("The law's root-mean-square residual is", "fit.rms < 0.06"),
        ("Held at $E = 1.5$ nats instead", "held.rms < fit.rms + 0.01 and held.alpha > 2 * fit.alpha"),
        ("far under the best run's", "fit.alpha < 0.15 and fit.E < best_loss - 0.5"),
        ("most of it is a\nconstant", "n_term.min() > 2 * (n_term.max() - n_term.min())"),
        ("lies anywhere from", "interval['beta'][1] - interval['beta'][0] > 0.5"),
    ],
}


@dataclass
class Chapter:
    sections: list[tuple[str, list[str]]]  # (prose, asserts) of each "## " section, in order

    @classmethod
    def read(cls, page: str, root: Path = ROOT) -> Chapter:
        notebook = read_myst_markdown_notebook((root / f"{page}.md").read_text())
        sections: list[tuple[str, list[str]]] = [("", [])]
        for cell in notebook.cells:
            if cell.cell_type == "markdown":
                for part in re.split(r"(?m)^(?=## )", cell.source):
                    if part.startswith("## "):
                        sections.append(("", []))
                    prose, asserts = sections[-1]
                    sections[-1] = (prose + "\n" + part, asserts)
            elif cell.cell_type == "code":
                tree = ast.parse("\n".join(line for line in cell.source.splitlines() if not line.startswith("%")))
                sections[-1][1].extend(ast.unparse(node) for node in ast.walk(tree) if isinstance(node, ast.Assert))
        return cls(sections)

    def asserts(self) -> list[str]:
        return [a for _, asserts in self.sections for a in asserts]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def executed_chapters() -> list[str]:
    return [page for page in notebook_pages() if page != "book/intro"]


def test_every_executed_chapter_lists_its_claims() -> None:
    assert set(CLAIMS) == set(executed_chapters())


def unchecked_claims(page: str, root: Path = ROOT) -> list[str]:
    """What is wrong with ``page``'s listed claims: phrases gone from the prose, checks gone from their section."""
    chapter = Chapter.read(page, root)
    problems = []
    for phrase, check in CLAIMS[page]:
        sections = [asserts for prose, asserts in chapter.sections if squash(phrase) in squash(prose)]
        if not sections:
            problems.append(f"the claim {phrase!r} is no longer in the prose")
        elif not any(squash(check) in squash(a) for asserts in sections for a in asserts):
            problems.append(f"no assert in the section of {phrase!r} checks {check!r}")
    return problems


@pytest.mark.parametrize("page", sorted(CLAIMS))
def test_each_claim_is_in_the_prose_and_asserted_in_its_section(page: str) -> None:
    assert not unchecked_claims(page), unchecked_claims(page)


@pytest.mark.parametrize("page", sorted(CLAIMS))
def test_every_assert_of_a_chapter_backs_a_listed_claim(page: str) -> None:
    checks = [squash(check) for _, check in CLAIMS[page]]
    unlisted = [a for a in Chapter.read(page).asserts() if not any(check in squash(a) for check in checks)]
    assert not unlisted, f"{page}: asserts that back no listed claim (add the claim to CLAIMS): {unlisted}"


def test_the_checker_catches_a_claim_whose_assert_or_sentence_is_gone(tmp_path: Path) -> None:
    """The control: removing an assert, or rewording its sentence, is reported."""
    page = "book/01_attention"
    source = (ROOT / f"{page}.md").read_text()
    (tmp_path / "book").mkdir()
    assert "assert t_additive > 2 * t_dot" in source and "additive attention was" in source
    (tmp_path / f"{page}.md").write_text(source.replace("assert t_additive > 2 * t_dot", "assert t_additive > 0"))
    assert unchecked_claims(page, tmp_path) == [
        "no assert in the section of 'additive attention was' checks 't_additive > 2 * t_dot'"
    ]
    (tmp_path / f"{page}.md").write_text(source.replace("additive attention was", "additive attention is"))
    assert unchecked_claims(page, tmp_path) == ["the claim 'additive attention was' is no longer in the prose"]


def glued_twice(page: str, root: Path = ROOT) -> list[str]:
    """The glue keys that ``page``'s cells glue in more than one place, by name (a key built at run time, an
    f-string, is not counted): the build refuses a duplicate key, but only after executing every chapter."""
    notebook = read_myst_markdown_notebook((root / f"{page}.md").read_text())
    places: Counter[str] = Counter()
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        tree = ast.parse("\n".join(line for line in cell.source.splitlines() if not line.startswith("%")))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "glue"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                places[node.args[0].value] += 1
    return sorted(key for key, n in places.items() if n > 1)


@pytest.mark.parametrize("page", executed_chapters())
def test_each_glue_key_is_glued_in_one_place(page: str) -> None:
    assert not glued_twice(page), f"{page}: glued in more than one place (the build fails): {glued_twice(page)}"


def test_the_glue_checker_finds_a_key_glued_twice(tmp_path: Path) -> None:
    page = "book/01_attention"
    source = (ROOT / f"{page}.md").read_text()
    (tmp_path / "book").mkdir()
    assert 'glue("t_chapter", ' in source
    (tmp_path / f"{page}.md").write_text(
        source.replace('glue("t_chapter", ', 'glue("t_chapter", 0)\nglue("t_chapter", ', 1)
    )
    assert glued_twice(page, tmp_path) == ["t_chapter"]
