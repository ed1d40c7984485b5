package dev.portico.telemetry.analytics.offloop;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** User agents are grouped the way GoAccess groups them: browsers, crawlers, command-line and library clients. */
class UserAgentClassTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "curl/8.0 | tool",
            "Wget/1.21.3 | tool",
            "python-requests/2.31.0 | tool",
            "Go-http-client/1.1 | tool",
            "okhttp/4.12.0 | tool",
            "Java/17.0.9 | tool",
            "Java-http-client/17.0.9 | tool",
            "Apache-HttpClient/4.5.14 (Java/17.0.9) | tool",
            "PostmanRuntime/7.36.0 | tool",
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) | bot",
            "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) | bot",
            "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots) | bot",
            "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html) | bot",
            "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php) | bot",
            "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.0; +https://openai.com/gptbot) | bot",
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36 | bot",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 | browser",
            "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0 | browser",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 | browser",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1 | browser",
            "Opera/9.80 (Windows NT 6.1) Presto/2.12.388 Version/12.18 | browser",
            "SomeInternalService/3.2 | other",
    })
    void classifies(String userAgent, String expected) {
        assertEquals(expected, UserAgentClass.of(userAgent).code(), userAgent);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"   ", "-"})
    void noUserAgentIsUnknown(String userAgent) {
        assertEquals(UserAgentClass.UNKNOWN, UserAgentClass.of(userAgent));
    }
}
