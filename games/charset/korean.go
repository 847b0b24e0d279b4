package charset

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// Korean files without CA. EUC-KR's Hangul (bytes B0A1–C8FE) are GB2312
// hanzi byte for byte, so a Korean file decodes cleanly as GB18030, the
// first charset detection tries, into Chinese mojibake (이세돌 → 捞技倒);
// and Chinese text decodes as EUC-KR too, into Hangul (柯洁 → 온썅). Each
// reading is judged by how much of it is common text of its language:
// Korean names and Go words are a few hundred syllables, and Chinese
// read as Hangul lands on rare ones (썅), and Korean read as hanzi on
// rare characters.

// commonHangul: syllables of Korean surnames and given names, of Go
// (흑 백 불계승 집 반) and of everyday text. A selection, not a ranking.
const commonHangul = "" +
	"김이박최정강조윤장임한오서신권황안송류유전홍고문양손배백허남심노하곽성차주우구민진지엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예경봉사부가복태목형피두감호음빈동온좌팽승간상시갈단견당화창옹순" +
	"수영준희혜재훈철종미숙자애환규세돌병광혁범아나다린율결건찬휘욱웅식일근만묵보분삼섭실엽완요운을의익중직집청초춘충치택통파평필학항해행향헌회효후흥란령례로록룡루륜률리림립" +
	"곤겸덕래렬벽별산솔슬언열월힘교군귀균난녕누늘달담돈둘람랑량려련론뢰륭름" +
	"흑불계패집덤바둑대회배본프그급앙로단판읽권무" +
	"는에를고한라거생관비내있것계트드법발습했었합와으네데되된될좋없않저너때더또잘좀많말님씨점잡살죽게서요니들해적과스면"

// commonHan: frequent Chinese characters, surnames and Go words (黑 白
// 胜 负 中盘 目 子 局 届 杯).
const commonHan = "" +
	"的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴善低够存值热朝底考注具型" +
	"刘陈杨赵吴徐孙朱胡郭罗郑梁谢宋唐韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁沈姚卢姜崔钟谭陆汪范廖贾夏韦付邹孟熊秦邱尹薛闫段雷侯龙陶黎贺顾郝龚邵钱严覃戴莫孔向汤柯古常聂朴洁力昊晓春浩杰伟明" +
	"黑胜负盘局届杯赛冠军段棋围执贴让劫眼又半目子和"

var hangulSet, hanSet = runeSet(commonHangul), runeSet(commonHan)

func runeSet(s string) map[rune]bool {
	m := make(map[rune]bool, utf8.RuneCountInString(s))
	for _, r := range s {
		m[r] = true
	}
	return m
}

// minCommonHangul and minSyllables are decided: the share of a Korean
// reading's syllables that must be common ones, and how many there must
// be. Chinese read as Hangul lands on a common syllable about one time
// in eight, but a short text can by chance (柯洁 谢尔豪 read as three
// common syllables of four, and one Hanja): so every character beyond
// ASCII must be Hangul too, and a text shorter than a name stays GB18030.
const (
	minCommonHangul = 0.85
	minSyllables    = 3
)

// readKorean returns the EUC-KR reading of data when that is the likely
// one: it decodes cleanly, is Hangul syllables only beyond ASCII (at
// least minSyllables), nearly all of them common, and the GB18030 reading has fewer common characters than the
// Korean one has common syllables.
func readKorean(data []byte) ([]byte, bool) {
	kr, err := clean(korean.EUCKR, data)
	if err != nil {
		return nil, false
	}
	syllables, other, common := 0, 0, 0
	for _, r := range string(kr) {
		switch {
		case r < utf8.RuneSelf:
		case r >= 0xAC00 && r <= 0xD7A3:
			syllables++
			if hangulSet[r] {
				common++
			}
		default:
			other++
		}
	}
	if syllables < minSyllables || other > 0 {
		return nil, false
	}
	krShare := float64(common) / float64(syllables)
	if krShare < minCommonHangul {
		return nil, false
	}
	gb, err := clean(simplifiedchinese.GB18030, data)
	if err != nil {
		return kr, true
	}
	han, hanCommon := 0, 0
	for _, r := range string(gb) {
		if r >= utf8.RuneSelf && !strings.ContainsRune("，。、：；！？（）《》“”", r) {
			han++
			if hanSet[r] {
				hanCommon++
			}
		}
	}
	if han > 0 && float64(hanCommon)/float64(han) >= krShare {
		return nil, false
	}
	return kr, true
}
