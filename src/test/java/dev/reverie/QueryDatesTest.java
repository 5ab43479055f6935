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
        assertThat(QueryDates.of(query)).containsExactly(new QueryDates.Span(year, month, day));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "May I ask what you did?",
        "you may want to march on",
        "What did she say about the 2 dogs?",
        "I was born in 1990",
        "the meeting at 10:30",
        "the jazz band played",
        "What happened on 31 February 2023?",
        "call 2023-13-40 is not a date",
        ""})
    void names_no_date(String query) {
        assertThat(QueryDates.of(query)).isEmpty();
    }

    @Test
    void names_every_date_once_in_order() {
        assertThat(QueryDates.of("Between May 3, 2023 and 7 July 2023, and again on May 3, 2023?"))
                .containsExactly(new QueryDates.Span(2023, 5, 3), new QueryDates.Span(2023, 7, 7));
        assertThat(QueryDates.of(null)).isEmpty();
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
