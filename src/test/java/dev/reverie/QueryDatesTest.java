package dev.reverie;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The calendar dates a query names, in the forms people write them. */
class QueryDatesTest {

    /** A Wednesday. */
    static final Instant NOW = Instant.parse("2024-03-13T15:30:00Z");

    static QueryDates.When days(String first, int count) {
        Instant from = Instant.parse(first + "T00:00:00Z");
        return new QueryDates.Between(from, from.plus(java.time.Duration.ofDays(count)));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "what did I tell you yesterday?|2024-03-12|1",
        "O que eu disse ontem?|2024-03-12|1",
        "and the day before yesterday|2024-03-11|1",
        "anything new today|2024-03-13|1",
        "the dentist I mentioned three days ago|2024-03-09|3",
        "what I said 10 days ago|2024-03-02|3",
        "o que falei há 2 dias|2024-03-10|3",
        "a week ago I said something|2024-02-28|14",
        "what did we plan last week|2024-02-28|14",
        "o que combinamos na semana passada|2024-02-28|14",
        "this week's plans|2024-03-06|8",
        "in the past month|2024-02-11|32",
        "what happened last year|2023-01-01|365",
        "two years ago|2022-01-01|365"})
    void names_a_span_relative_to_now(String query, String first, int count) {
        assertThat(QueryDates.of(query, NOW)).containsExactly(days(first, count));
    }

    @Test
    void names_calendar_months_relative_to_now() {
        assertThat(QueryDates.of("what did I buy last month?", NOW)).containsExactly(new QueryDates.Span(2024, 2, 0));
        assertThat(QueryDates.of("este m\u00eas", NOW)).containsExactly(new QueryDates.Span(2024, 3, 0));
        assertThat(QueryDates.of("two months ago", NOW)).containsExactly(new QueryDates.Span(2024, 1, 0));
        assertThat(QueryDates.of("On 3 June, 2023 and yesterday", NOW))
                .containsExactly(new QueryDates.Span(2023, 6, 3), days("2024-03-12", 1));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "What did she start, as mentioned on 3 June, 2023?|2023|6|3",
        "what happened on June 3, 2023|2023|6|3",
        "What did we decide on the 21st of March 2024?|2024|3|21",
        "notes from 2024-03-05 please|2024|3|5",
        "O que ele disse em 5 de junho de 2023?|2023|6|5",
        "What did he say on Sept. 9, 2022?|2022|9|9",
        "anything on Dec 31 2021|2021|12|31",
        "what did I plan for June 3rd|0|6|3",
        "What did she paint in July 2023?|2023|7|0",
        "What happened in March, 2024|2024|3|0",
        "Where did they go camping in June?|0|6|0",
        "what did I buy in mid-May|0|5|0",
        "O que aconteceu em maio?|0|5|0",
        "what happened in março de 2024|2024|3|0"})
    void names_one_date(String query, int year, int month, int day) {
        assertThat(QueryDates.of(query, NOW)).containsExactly(new QueryDates.Span(year, month, day));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "May I ask what you did?",
        "you may want to march on",
        "What did she say about the 2 dogs?",
        "I was born in 1990",
        "the days ago were fine",
        "a weekly plan for the month",
        "the meeting at 10:30",
        "the jazz band played",
        "What happened on 31 February 2023?",
        "call 2023-13-40 is not a date",
        ""})
    void names_no_date(String query) {
        assertThat(QueryDates.of(query, NOW)).isEmpty();
    }

    @Test
    void names_every_date_once_in_order() {
        assertThat(QueryDates.of("Between May 3, 2023 and 7 July 2023, and again on May 3, 2023?", NOW))
                .containsExactly(new QueryDates.Span(2023, 5, 3), new QueryDates.Span(2023, 7, 7));
        assertThat(QueryDates.of(null, NOW)).isEmpty();
    }

    @Test
    void a_span_covers_its_utc_day_or_month() {
        QueryDates.Span day = new QueryDates.Span(2023, 6, 3);
        assertThat(day.covers(Instant.parse("2023-06-03T00:00:00Z"))).isTrue();
        assertThat(day.covers(Instant.parse("2023-06-03T23:59:59Z"))).isTrue();
        assertThat(day.covers(Instant.parse("2023-06-04T00:00:00Z"))).isFalse();
        assertThat(day.covers(Instant.parse("2022-06-03T12:00:00Z"))).isFalse();
        QueryDates.Span anyYear = new QueryDates.Span(0, 6, 0);
        assertThat(anyYear.covers(Instant.parse("2019-06-30T12:00:00Z"))).isTrue();
        assertThat(anyYear.covers(Instant.parse("2019-07-01T00:00:00Z"))).isFalse();
        assertThat(QueryDates.covers(List.of(day, new QueryDates.Span(2024, 1, 0)),
                Instant.parse("2024-01-15T08:00:00Z"))).isTrue();
        assertThat(QueryDates.covers(List.of(), Instant.parse("2024-01-15T08:00:00Z"))).isFalse();
    }
}
